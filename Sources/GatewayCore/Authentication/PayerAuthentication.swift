import Foundation

/// One payer authentication (MPGS transaction type AUTHENTICATION): INITIATE_AUTHENTICATION
/// creates it, AUTHENTICATE_PAYER and the ACS challenge move it on, under one transaction id.
/// The store keeps it typed; every replica reads it from there. Masked card data only.
package struct PayerAuthentication: Sendable, Hashable {
    package var merchantId: String
    package var orderId: String
    package var transactionId: String
    /// The API version of the latest request on it.
    package var version: APIVersion
    package var status: AuthenticationStatus
    /// Decided from the card number at INITIATE_AUTHENTICATION (the number itself is not kept).
    package var scenario: ThreeDSScenario
    package var amount: Amount
    package var card: CardDetails
    package var channel: String
    package var purpose: String
    package var acceptVersions: String?
    package var redirectResponseUrl: String?
    /// The key of the sandbox ACS page while a challenge is pending (random, single use).
    package var challengeId: String?
    package var threeDS: ThreeDSResult?
    /// Increases with every change: an update based on an older read is refused.
    package var revision: Int64
    package var createdAt: Date
    package var updatedAt: Date

    package init(
        merchantId: String,
        orderId: String,
        transactionId: String,
        version: APIVersion,
        status: AuthenticationStatus,
        scenario: ThreeDSScenario,
        amount: Amount,
        card: CardDetails,
        channel: String,
        purpose: String,
        acceptVersions: String?,
        redirectResponseUrl: String?,
        challengeId: String?,
        threeDS: ThreeDSResult?,
        revision: Int64,
        createdAt: Date,
        updatedAt: Date
    ) {
        self.merchantId = merchantId
        self.orderId = orderId
        self.transactionId = transactionId
        self.version = version
        self.status = status
        self.scenario = scenario
        self.amount = amount
        self.card = card
        self.channel = channel
        self.purpose = purpose
        self.acceptVersions = acceptVersions
        self.redirectResponseUrl = redirectResponseUrl
        self.challengeId = challengeId
        self.threeDS = threeDS
        self.revision = revision
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The version the simulated server authenticates with: 3DS2 when the card is enrolled and
    /// the merchant's `acceptVersions` allows it; nil when none is available.
    package var offeredVersion: PaymentOptions.ThreeDSecureVersion? {
        scenario.isEnrolled ? PaymentOptions.ThreeDSecureVersion.accepted(acceptVersions).first : nil
    }

    /// `authentication.version`: the version offered, else NONE.
    package var authenticationVersion: String { offeredVersion?.rawValue ?? "NONE" }

    /// What a payment naming this authentication carries into the order.
    package var forPayment: PaymentAuthentication {
        PaymentAuthentication(
            transactionId: transactionId,
            status: status,
            version: authenticationVersion,
            acsEci: threeDS?.acsEci,
            threeDSTransactionId: threeDS?.transactionId,
            dsTransactionId: threeDS?.dsTransactionId,
            protocolVersion: threeDS?.protocolVersion,
            transactionStatus: threeDS?.transactionStatus
        )
    }
}

/// What the (simulated) 3-D Secure exchange returned: the ids of the 3DS server and directory
/// server transactions, the protocol version, the ACS's answer and, once authenticated, the ECI
/// and the authentication token (CAVV/AAV) the payment carries to the acquirer.
package struct ThreeDSResult: Sendable, Hashable {
    package var transactionId: String
    package var dsTransactionId: String
    package var protocolVersion: String
    package var transactionStatus: ThreeDSTransactionStatus?
    package var acsEci: String?
    package var authenticationToken: String?

    package init(
        transactionId: String,
        dsTransactionId: String,
        protocolVersion: String,
        transactionStatus: ThreeDSTransactionStatus?,
        acsEci: String?,
        authenticationToken: String?
    ) {
        self.transactionId = transactionId
        self.dsTransactionId = dsTransactionId
        self.protocolVersion = protocolVersion
        self.transactionStatus = transactionStatus
        self.acsEci = acsEci
        self.authenticationToken = authenticationToken
    }
}

/// The authentication an AUTHORIZE or PAY named (`authentication.transactionId`), as its receipt
/// keeps it: never the authentication token.
package struct PaymentAuthentication: Sendable, Hashable {
    package var transactionId: String
    package var status: AuthenticationStatus
    package var version: String
    package var acsEci: String?
    package var threeDSTransactionId: String?
    package var dsTransactionId: String?
    package var protocolVersion: String?
    package var transactionStatus: ThreeDSTransactionStatus?

    package init(
        transactionId: String,
        status: AuthenticationStatus,
        version: String,
        acsEci: String?,
        threeDSTransactionId: String?,
        dsTransactionId: String?,
        protocolVersion: String?,
        transactionStatus: ThreeDSTransactionStatus?
    ) {
        self.transactionId = transactionId
        self.status = status
        self.version = version
        self.acsEci = acsEci
        self.threeDSTransactionId = threeDSTransactionId
        self.dsTransactionId = dsTransactionId
        self.protocolVersion = protocolVersion
        self.transactionStatus = transactionStatus
    }
}
