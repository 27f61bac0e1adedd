import Foundation

/// One operator action, as the audit log shows it: who, when, from where, what.
package struct AuditEntry: Sendable, Hashable {
    package enum Action: String, Sendable, Hashable, CaseIterable {
        case login = "LOGIN"
        case loginFailed = "LOGIN_FAILED"
        case logout = "LOGOUT"
        /// A form posted without the session's CSRF token (a forgery, or a stale page).
        case csrfRefused = "CSRF_REFUSED"
        /// An action the operator's role does not allow.
        case forbidden = "FORBIDDEN"
        case capture = "CAPTURE"
        case void = "VOID"
        case refund = "REFUND"
        case operatorAdded = "OPERATOR_ADDED"
        case operatorRemoved = "OPERATOR_REMOVED"
        case passwordChanged = "PASSWORD_CHANGED"
        case applePayKeyCreated = "APPLE_PAY_KEY_CREATED"
        case applePayCertificateInstalled = "APPLE_PAY_CERTIFICATE_INSTALLED"
        case applePayIdentityRetired = "APPLE_PAY_IDENTITY_RETIRED"
        case sandboxPayment = "SANDBOX_PAYMENT"
        case apiPasswordAdded = "API_PASSWORD_ADDED"
        case apiPasswordRetired = "API_PASSWORD_RETIRED"
        case notificationRedelivered = "NOTIFICATION_REDELIVERED"
        /// An ACCEPT or REJECT of a payment held for risk review (issue 64).
        case riskReview = "RISK_REVIEW"
    }

    package var merchantId: String
    package var operatorName: String
    package var action: Action
    /// The order and transaction acted on, or the refusal; never a secret.
    package var detail: String
    package var address: String
    package var time: Date

    package init(merchantId: String, operatorName: String, action: Action, detail: String, address: String, time: Date) {
        self.merchantId = merchantId
        self.operatorName = operatorName
        self.action = action
        self.detail = detail
        self.address = address
        self.time = time
    }
}
