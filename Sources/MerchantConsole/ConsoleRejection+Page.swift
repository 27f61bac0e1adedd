import Foundation
import GatewayCore
import Hummingbird

/// Each refusal worded for the operator, with its HTTP status.
extension ConsoleRejection {
    var status: HTTPResponse.Status {
        switch self {
        case .invalidCredentials, .sessionExpired: .unauthorized
        case .operatorLocked, .addressLocked: .tooManyRequests
        case .loginsBusy: .serviceUnavailable
        case .csrfTokenMismatch, .roleForbidden: .forbidden
        case .orderNotFound: .notFound
        case .invalidField: .badRequest
        }
    }

    var wording: String {
        switch self {
        case .invalidCredentials: "The merchant ID, operator or password is not right."
        case .operatorLocked(let until):
            "Too many failed logins: this operator is locked until \(ConsoleFormat.time(until))."
        case .addressLocked: "Too many failed logins from this address. Try again later."
        case .loginsBusy: "Too many logins are being checked at once. Try again in a few seconds."
        case .sessionExpired: "Your session has ended. Log in again."
        case .csrfTokenMismatch: "This form has expired or did not come from the console. Open the page again and resubmit."
        case .roleForbidden(let role): "A \(role.rawValue) operator cannot do this: it needs an admin."
        case .orderNotFound(let orderId): "There is no order \(orderId) for this merchant."
        case .invalidField(let field): "The value of \(field) cannot be used."
        }
    }
}
