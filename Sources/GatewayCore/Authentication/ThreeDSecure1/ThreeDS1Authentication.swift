import Foundation

/// One 3-D Secure 1 authentication (MPGS's `3DSecureId` resource): CHECK_3DS_ENROLLMENT creates
/// it, the sandbox ACS page and PROCESS_ACS_RESULT move it on, and one order's AUTHORIZE or PAY
/// naming it (top-level `3DSecureId`) uses it up. Kept typed in the store; masked card data only.
package struct ThreeDS1Authentication: Sendable, Hashable {
    package var merchantId: String
    package var threeDSecureId: String
    /// The API version of the latest request on it.
    package var version: APIVersion
    package var status: ThreeDS1Status
    /// Decided from the card number at CHECK_3DS_ENROLLMENT: the 3-D Secure 2 test-card table.
    package var scenario: ThreeDSScenario
    package var amount: Amount
    package var card: CardDetails
    /// `3DSecure.authenticationRedirect.responseUrl`: the merchant's TermUrl.
    package var responseUrl: String
    package var pageGenerationMode: ThreeDS1PageGenerationMode
    /// The PaReq the ACS page is posted (random, single use): set while the payer is awaited.
    package var paReq: String?
    /// The PaRes the ACS page posted back to the merchant: set until PROCESS_ACS_RESULT takes it.
    package var paRes: String?
    package var veResEnrolled: ThreeDS1Enrolled
    /// The ACS's answer (`3DSecure.paResStatus`), once the payer answered.
    package var paResStatus: ThreeDS1PaResStatus?
    package var acsEci: String?
    /// The simulated CAVV/AAV (`3DSecure.authenticationToken`): never shown on a payment.
    package var authenticationToken: String?
    /// The 3-D Secure 1 transaction id (`3DSecure.xid`, 20 random bytes as base64).
    package var xid: String
    /// The order whose payment used it: that order's retries and new attempts may use it again,
    /// no other order.
    package var usedByOrderId: String?
    /// Increases with every change: an update based on an older read is refused.
    package var revision: Int64
    package var createdAt: Date
    package var updatedAt: Date

    package init(
        merchantId: String,
        threeDSecureId: String,
        version: APIVersion,
        status: ThreeDS1Status,
        scenario: ThreeDSScenario,
        amount: Amount,
        card: CardDetails,
        responseUrl: String,
        pageGenerationMode: ThreeDS1PageGenerationMode,
        paReq: String?,
        paRes: String?,
        veResEnrolled: ThreeDS1Enrolled,
        paResStatus: ThreeDS1PaResStatus?,
        acsEci: String?,
        authenticationToken: String?,
        xid: String,
        usedByOrderId: String?,
        revision: Int64,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.merchantId = merchantId
        self.threeDSecureId = threeDSecureId
        self.version = version
        self.status = status
        self.scenario = scenario
        self.amount = amount
        self.card = card
        self.responseUrl = responseUrl
        self.pageGenerationMode = pageGenerationMode
        self.paReq = paReq
        self.paRes = paRes
        self.veResEnrolled = veResEnrolled
        self.paResStatus = paResStatus
        self.acsEci = acsEci
        self.authenticationToken = authenticationToken
        self.xid = xid
        self.usedByOrderId = usedByOrderId
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// What a payment naming it carries into the order and its receipt (never the token): the
    /// receipt's authentication columns hold 3-D Secure 1 as version 3DS1, the xid as its
    /// transaction id and the PaRes status as its status; the enrolment follows from the status.
    package var forPayment: PaymentAuthentication {
        PaymentAuthentication(
            transactionId: threeDSecureId,
            status: status.paymentStatus,
            version: ThreeDS1Authentication.paymentVersion,
            acsEci: acsEci,
            threeDSTransactionId: xid,
            dsTransactionId: nil,
            protocolVersion: "1.0.2",
            transactionStatus: paResStatus.flatMap { ThreeDSTransactionStatus(rawValue: $0.rawValue) }
        )
    }

    /// `PaymentAuthentication.version` of a 3-D Secure 1 authentication.
    package static let paymentVersion = "3DS1"
}

/// MPGS's `3DSecure.summaryStatus` (and `response.3DSecure.gatewayCode`).
package enum ThreeDS1Status: String, Sendable, Hashable, CaseIterable {
    /// Enrolled: the payer is sent to the ACS page.
    case cardEnrolled = "CARD_ENROLLED"
    case cardNotEnrolled = "CARD_NOT_ENROLLED"
    /// The directory server could not say (the error test card).
    case notAvailable = "AUTHENTICATION_NOT_AVAILABLE"
    case successful = "AUTHENTICATION_SUCCESSFUL"
    case failed = "AUTHENTICATION_FAILED"

    /// Whether a payment may name it: authenticated, or 3-D Secure does not apply to the card
    /// (the reference's clients still send the id for those two, and the payment is marked so).
    package var allowsPayment: Bool {
        switch self {
        case .successful, .cardNotEnrolled, .notAvailable: true
        case .cardEnrolled, .failed: false
        }
    }

    /// `response.gatewayRecommendation` (versions 47 and later).
    package var proceed: Bool { self != .failed }

    /// The status the payment's receipt keeps (the 3-D Secure 2 vocabulary the order shows).
    package var paymentStatus: AuthenticationStatus {
        switch self {
        case .cardEnrolled: .pending
        case .cardNotEnrolled: .notSupported
        case .notAvailable: .unavailable
        case .successful: .successful
        case .failed: .failed
        }
    }
}

/// `3DSecure.veResEnrolled`: the directory server's answer to the enrolment check.
package enum ThreeDS1Enrolled: String, Sendable, Hashable {
    case yes = "Y"
    case no = "N"
    case unavailable = "U"
}

/// `3DSecure.paResStatus`: the ACS's answer.
package enum ThreeDS1PaResStatus: String, Sendable, Hashable {
    case authenticated = "Y"
    case notAuthenticated = "N"
}

/// `3DSecure.authenticationRedirect.pageGenerationMode`.
package enum ThreeDS1PageGenerationMode: String, Sendable, Hashable, CaseIterable {
    case simple = "SIMPLE"
    case customized = "CUSTOMIZED"
}
