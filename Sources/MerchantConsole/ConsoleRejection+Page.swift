import Foundation
import GatewayCore
import Hummingbird

/// Each refusal worded for the operator, with its HTTP status.
extension ConsoleRejection {
    var status: HTTPResponse.Status {
        switch self {
        // A locked operator answers as an unknown name or a wrong password: all three say only
        // that the login was refused.
        case .invalidCredentials, .operatorLocked, .sessionExpired: .unauthorized
        case .addressLocked: .tooManyRequests
        case .loginsBusy: .serviceUnavailable
        case .csrfTokenMismatch, .roleForbidden: .forbidden
        case .orderNotFound: .notFound
        case .invalidField: .badRequest
        case .formTooLarge: .contentTooLarge
        }
    }

    var wording: String {
        switch self {
        case .invalidCredentials, .operatorLocked:
            "Login refused: the merchant ID, operator or password is not right, or too many failed logins have locked the operator for a while. Try again later."
        case .addressLocked: "Too many failed logins from this address. Try again later."
        case .loginsBusy: "Too many logins are being checked at once. Try again in a few seconds."
        case .sessionExpired: "Your session has ended. Log in again."
        case .csrfTokenMismatch: "This form has expired or did not come from the console. Open the page again and resubmit."
        case .roleForbidden(let role): "A \(role.rawValue) operator cannot do this: it needs an admin."
        case .orderNotFound(let orderId): "There is no order \(orderId) for this merchant."
        case .invalidField(let field): "The value of \(field) cannot be used."
        case .formTooLarge(let limit): "The form is larger than the console accepts (\(limit / 1024) KB)."
        }
    }
}
