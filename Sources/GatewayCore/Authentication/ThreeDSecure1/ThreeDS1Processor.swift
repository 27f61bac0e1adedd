import ApplePayToken
import Foundation

/// The simulated 3-D Secure 1 server: CHECK_3DS_ENROLLMENT, the sandbox ACS page's answer,
/// PROCESS_ACS_RESULT, and the check (and claim) a payment naming a `3DSecureId` must pass. The
/// card's scenario comes from the 3-D Secure 2 test-card table; every state is in the store and
/// a change is written only over the revision it was decided on.
package struct ThreeDS1Processor: Sendable {
    package let store: any ThreeDS1Store
    let locks: OrderLocks
    let clock: @Sendable () -> Date
    let simulated: Bool

    package init(store: any ThreeDS1Store, locks: OrderLocks, clock: @escaping @Sendable () -> Date, simulated: Bool) {
        self.store = store
        self.locks = locks
        self.clock = clock
        self.simulated = simulated
    }

    /// Refuses what the version or the mode does not have.
    package func checkAvailable(version: APIVersion) throws(ThreeDS1Rejection) {
        guard version.number <= ThreeDS1Rejection.lastVersion else { throw .retired(version: version.number) }
        guard simulated else { throw .notEnabled }
    }

    /// Enrolled cards get a PaReq for the ACS page; a card that is not enrolled, or whose
    /// directory server is unavailable, is answered at once. Again on the same id before anything
    /// used it, the check starts over (the merchant's retry after a timeout).
    package func checkEnrollment(_ request: ThreeDS1EnrollmentRequest, _ context: ThreeDS1Context) async throws -> ThreeDS1Authentication {
        try checkAvailable(version: context.version)
        return try await locks.withLock(context.lockKey) {
            let existing = try await store.threeDS1Authentication(merchantId: context.merchantId, threeDSecureId: context.threeDSecureId)
            if let existing, existing.usedByOrderId != nil || existing.paResStatus != nil {
                throw ThreeDS1Rejection.idInUse(threeDSecureId: context.threeDSecureId)
            }
            let now = Date(milliseconds: clock().milliseconds)
            let scenario = ThreeDSScenario(cardNumber: request.cardNumber)
            let (status, enrolled): (ThreeDS1Status, ThreeDS1Enrolled) =
                switch scenario {
                case .notEnrolled: (.cardNotEnrolled, .no)
                case .error: (.notAvailable, .unavailable)
                case .frictionlessSuccess, .challenge, .frictionlessFailure: (.cardEnrolled, .yes)
                }
            let brand = CardBrand(cardNumber: request.cardNumber)
            let authentication = ThreeDS1Authentication(
                merchantId: context.merchantId,
                threeDSecureId: context.threeDSecureId,
                version: context.version,
                status: status,
                scenario: scenario,
                amount: request.amount,
                card: CardDetails(
                    maskedNumber: CardNumberMask.mask(request.cardNumber),
                    brand: brand,
                    expiry: request.expiry,
                    nameOnCard: request.nameOnCard
                ),
                responseUrl: request.responseUrl,
                pageGenerationMode: request.pageGenerationMode,
                paReq: status == .cardEnrolled ? Self.randomBase64(bytes: 24) : nil,
                paRes: nil,
                veResEnrolled: enrolled,
                paResStatus: nil,
                // Outside 3-D Secure the payment goes as an attempt (not enrolled) or as
                // unauthenticated e-commerce (unavailable): the brand's ECI says which.
                acsEci: Self.eci(status, mastercard: brand.scheme == "MASTERCARD"),
                authenticationToken: nil,
                xid: Self.randomBase64(bytes: 20),
                usedByOrderId: nil,
                revision: (existing?.revision ?? 0) + 1,
                createdAt: existing?.createdAt ?? now,
                updatedAt: now
            )
            try await write(authentication, over: existing)
            return authentication
        }
    }

    /// The payer's answer on the ACS page, once per PaReq: the PaRes the page posts to the
    /// merchant's TermUrl. The failure test card's issuer refuses whatever the payer enters.
    package func answer(paReq: String, outcome: ChallengeOutcome) async throws -> ThreeDS1Authentication {
        guard simulated, let found = try await store.threeDS1Authentication(paReq: paReq) else {
            throw ThreeDS1Rejection.paReqNotPending
        }
        let context = ThreeDS1Context(merchantId: found.merchantId, threeDSecureId: found.threeDSecureId, version: found.version)
        return try await locks.withLock(context.lockKey) {
            guard let existing = try await store.threeDS1Authentication(paReq: paReq), existing.status == .cardEnrolled else {
                throw ThreeDS1Rejection.paReqNotPending
            }
            var authentication = existing
            authentication.paReq = nil
            authentication.paRes = Self.randomBase64(bytes: 48)
            authentication.paResStatus =
                outcome == .authenticated && existing.scenario != .frictionlessFailure ? .authenticated : .notAuthenticated
            authentication.revision = existing.revision + 1
            authentication.updatedAt = Date(milliseconds: clock().milliseconds)
            try await write(authentication, over: existing)
            return authentication
        }
    }

    /// PROCESS_ACS_RESULT: the PaRes the ACS posted, unaltered, decides the authentication. The
    /// identical request again answers as before.
    package func processACSResult(paRes: String, _ context: ThreeDS1Context) async throws -> ThreeDS1Authentication {
        try checkAvailable(version: context.version)
        return try await locks.withLock(context.lockKey) {
            guard let existing = try await store.threeDS1Authentication(merchantId: context.merchantId, threeDSecureId: context.threeDSecureId)
            else { throw ThreeDS1Rejection.notFound(threeDSecureId: context.threeDSecureId) }
            guard let expected = existing.paRes, let status = existing.paResStatus, expected == paRes else {
                throw ThreeDS1Rejection.paResNotRecognized(threeDSecureId: context.threeDSecureId)
            }
            if existing.status != .cardEnrolled { return existing }
            var authentication = existing
            let mastercard = existing.card.brand.scheme == "MASTERCARD"
            authentication.version = context.version
            switch status {
            case .authenticated:
                authentication.status = .successful
                authentication.authenticationToken = Data(Self.randomBytes(20)).base64EncodedString()
            case .notAuthenticated:
                authentication.status = .failed
            }
            authentication.acsEci = Self.eci(authentication.status, mastercard: mastercard)
            authentication.revision = existing.revision + 1
            authentication.updatedAt = Date(milliseconds: clock().milliseconds)
            try await write(authentication, over: existing)
            return authentication
        }
    }

    private func write(_ authentication: ThreeDS1Authentication, over existing: ThreeDS1Authentication?) async throws {
        let written =
            if let existing {
                try await store.replaceThreeDS1Authentication(authentication, expectedRevision: existing.revision)
            } else {
                try await store.insertThreeDS1Authentication(authentication)
            }
        guard written else { throw ThreeDS1Rejection.changed }
    }

    /// The ECI each outcome carries to the acquirer, by brand (Mastercard's, else Visa's scale).
    static func eci(_ status: ThreeDS1Status, mastercard: Bool) -> String? {
        switch status {
        case .successful: mastercard ? "02" : "05"
        case .cardNotEnrolled: mastercard ? "01" : "06"
        case .notAvailable, .failed: mastercard ? "00" : "07"
        case .cardEnrolled: nil
        }
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func randomBase64(bytes: Int) -> String {
        Data(randomBytes(bytes)).base64EncodedString()
    }
}

extension ThreeDS1Store {
    /// What an AUTHORIZE or PAY naming `threeDSecureId` carries into the order, claimed for the
    /// order (run under the order's lock): the merchant's own authentication, passed (or outside
    /// 3-D Secure), for this currency and no more than its amount, unused by any other order.
    package func claimForPayment(
        merchantId: String,
        threeDSecureId: String,
        orderId: String,
        amount: Amount
    ) async throws -> PaymentAuthentication {
        guard let authentication = try await threeDS1Authentication(merchantId: merchantId, threeDSecureId: threeDSecureId) else {
            throw PaymentRejection.threeDS1(.notFound(threeDSecureId: threeDSecureId))
        }
        guard authentication.status.allowsPayment else {
            throw PaymentRejection.threeDS1(.notSuccessful(threeDSecureId: threeDSecureId, status: authentication.status))
        }
        guard amount.currency == authentication.amount.currency, amount.minorUnits <= authentication.amount.minorUnits else {
            throw PaymentRejection.threeDS1(
                .amountNotAuthenticated(threeDSecureId: threeDSecureId, payment: amount, authenticated: authentication.amount)
            )
        }
        switch authentication.usedByOrderId {
        case orderId:
            return authentication.forPayment
        case nil:
            var claimed = authentication
            claimed.usedByOrderId = orderId
            claimed.revision = authentication.revision + 1
            guard try await replaceThreeDS1Authentication(claimed, expectedRevision: authentication.revision) else {
                throw PaymentRejection.threeDS1(.changed)
            }
            return claimed.forPayment
        default:
            throw PaymentRejection.threeDS1(.alreadyUsed(threeDSecureId: threeDSecureId))
        }
    }
}

/// A CHECK_3DS_ENROLLMENT request, validated: the amount to authenticate, the card (whose
/// number picks the test scenario and is then dropped) and where the ACS sends the payer back.
package struct ThreeDS1EnrollmentRequest: Sendable {
    package var amount: Amount
    package var cardNumber: String
    package var expiry: CardExpiry?
    package var nameOnCard: String?
    package var responseUrl: String
    package var pageGenerationMode: ThreeDS1PageGenerationMode

    package init(
        amount: Amount,
        cardNumber: String,
        expiry: CardExpiry?,
        nameOnCard: String?,
        responseUrl: String,
        pageGenerationMode: ThreeDS1PageGenerationMode
    ) {
        self.amount = amount
        self.cardNumber = cardNumber
        self.expiry = expiry
        self.nameOnCard = nameOnCard
        self.responseUrl = responseUrl
        self.pageGenerationMode = pageGenerationMode
    }
}

/// Whose and which `3DSecureId` a request is about.
package struct ThreeDS1Context: Sendable {
    package var merchantId: String
    package var threeDSecureId: String
    package var version: APIVersion

    package init(merchantId: String, threeDSecureId: String, version: APIVersion) {
        self.merchantId = merchantId
        self.threeDSecureId = threeDSecureId
        self.version = version
    }

    var lockKey: String { "\(merchantId)\u{0}3DSecureId\u{0}\(threeDSecureId)" }
}

extension AuthenticationProcessor {
    /// 3-D Secure 1 over the same store (when it keeps 3-D Secure 1 authentications), locks,
    /// clock and mode.
    package var threeDS1: ThreeDS1Processor? {
        guard let store = store as? any ThreeDS1Store else { return nil }
        return ThreeDS1Processor(store: store, locks: locks, clock: clock, simulated: simulated)
    }
}
