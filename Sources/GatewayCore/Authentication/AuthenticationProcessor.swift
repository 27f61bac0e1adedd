import ApplePayToken
import Foundation

/// The simulated 3-D Secure server: INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER, the ACS
/// challenge's answer, and the check a payment naming an authentication must pass. Every state
/// is in the store; a change is written only over the revision it was decided on.
package struct AuthenticationProcessor: Sendable {
    package let store: any AuthenticationStore
    let locks: OrderLocks
    let clock: @Sendable () -> Date
    /// Sandbox mode: production reaches no directory server, so it authenticates no one.
    let simulated: Bool

    /// Whether payers can be authenticated here at all: what Payment Options Inquiry advertises.
    package var isEnabled: Bool { simulated }

    package init(store: any AuthenticationStore, locks: OrderLocks, clock: @escaping @Sendable () -> Date, simulated: Bool) {
        self.store = store
        self.locks = locks
        self.clock = clock
        self.simulated = simulated
    }

    /// Which version is available for the card: 3DS2 (AUTHENTICATION_AVAILABLE), or none
    /// (NONE, AUTHENTICATION_NOT_SUPPORTED) for a card that is not enrolled or a merchant whose
    /// `acceptVersions` excludes 3DS2, the only version simulated. Again on the same transaction
    /// id, before AUTHENTICATE_PAYER, it starts over.
    package func initiate(
        _ request: InitiateAuthenticationRequest,
        _ context: AuthenticationContext
    ) async throws -> PayerAuthentication {
        guard simulated else { throw AuthenticationRejection.notEnabled }
        return try await locks.withLock(context.orderKey) {
            let existing = try await store.authentication(
                merchantId: context.merchantId,
                orderId: context.orderId,
                transactionId: context.transactionId
            )
            if let existing, !Self.awaitsPayerAuthentication(existing.status) {
                throw AuthenticationRejection.alreadyAuthenticated(transactionId: context.transactionId, status: existing.status)
            }
            let now = Date(milliseconds: clock().milliseconds)
            let scenario = ThreeDSScenario(cardNumber: request.cardNumber)
            var authentication = PayerAuthentication(
                merchantId: context.merchantId,
                orderId: context.orderId,
                transactionId: context.transactionId,
                version: context.version,
                status: .available,
                scenario: scenario,
                amount: request.amount,
                card: CardDetails(
                    maskedNumber: CardNumberMask.mask(request.cardNumber),
                    brand: CardBrand(cardNumber: request.cardNumber),
                    expiry: request.expiry,
                    nameOnCard: request.nameOnCard
                ),
                channel: request.channel,
                purpose: request.purpose,
                acceptVersions: request.acceptVersions,
                redirectResponseUrl: nil,
                challengeId: nil,
                threeDS: nil,
                revision: (existing?.revision ?? 0) + 1,
                createdAt: existing?.createdAt ?? now,
                updatedAt: now
            )
            if authentication.offeredVersion == nil { authentication.status = .notSupported }
            try await write(authentication, over: existing)
            return authentication
        }
    }

    /// Frictionless or challenge, by the card's test scenario. A challenge leaves the
    /// authentication PENDING with a single-use ACS challenge id.
    package func authenticatePayer(
        _ request: AuthenticatePayerRequest,
        _ context: AuthenticationContext
    ) async throws -> PayerAuthentication {
        guard simulated else { throw AuthenticationRejection.notEnabled }
        return try await locks.withLock(context.orderKey) {
            guard
                let existing = try await store.authentication(
                    merchantId: context.merchantId,
                    orderId: context.orderId,
                    transactionId: context.transactionId
                )
            else { throw AuthenticationRejection.notInitiated(transactionId: context.transactionId) }
            guard Self.awaitsPayerAuthentication(existing.status) else {
                throw AuthenticationRejection.alreadyAuthenticated(transactionId: context.transactionId, status: existing.status)
            }
            // The merchant accepted no version the simulator has: there is nothing to
            // authenticate with, and a payer sent on would come back with no result.
            if let accepted = existing.acceptVersions, PaymentOptions.ThreeDSecureVersion.accepted(accepted).isEmpty {
                throw AuthenticationRejection.noAcceptedVersion(acceptVersions: accepted)
            }
            guard request.amount.currency == existing.amount.currency else {
                throw AuthenticationRejection.currencyMismatch(request.amount.currency, initiated: existing.amount.currency)
            }
            var authentication = existing
            authentication.version = context.version
            authentication.amount = request.amount
            authentication.redirectResponseUrl = request.redirectResponseUrl
            authentication.revision = existing.revision + 1
            authentication.updatedAt = Date(milliseconds: clock().milliseconds)
            let brand = existing.card.brand
            switch existing.scenario {
            case .notEnrolled:
                authentication.status = .notSupported
            case .frictionlessSuccess:
                authentication.status = .successful
                authentication.threeDS = Self.result(.authenticated, brand: brand)
            case .frictionlessFailure:
                authentication.status = .failed
                authentication.threeDS = Self.result(.notAuthenticated, brand: brand)
            case .error:
                authentication.status = .unavailable
                authentication.threeDS = Self.result(.unavailable, brand: brand)
            case .challenge:
                authentication.status = .pending
                authentication.threeDS = Self.result(.challengeRequired, brand: brand)
                authentication.challengeId = Self.randomHex(bytes: 16)
            }
            try await write(authentication, over: existing)
            return authentication
        }
    }

    /// The payer's answer on the ACS page: once, for a pending challenge.
    package func completeChallenge(challengeId: String, outcome: ChallengeOutcome) async throws -> PayerAuthentication {
        guard simulated, let found = try await store.authentication(challengeId: challengeId) else {
            throw AuthenticationRejection.challengeNotPending
        }
        let context = AuthenticationContext(
            merchantId: found.merchantId,
            orderId: found.orderId,
            transactionId: found.transactionId,
            version: found.version
        )
        return try await locks.withLock(context.orderKey) {
            guard
                let existing = try await store.authentication(challengeId: challengeId),
                existing.status == .pending
            else { throw AuthenticationRejection.challengeNotPending }
            var authentication = existing
            authentication.challengeId = nil
            authentication.revision = existing.revision + 1
            authentication.updatedAt = Date(milliseconds: clock().milliseconds)
            let status: ThreeDSTransactionStatus
            switch outcome {
            case .authenticated:
                authentication.status = .successful
                status = .authenticated
            case .notAuthenticated:
                authentication.status = .failed
                status = .notAuthenticated
            }
            var result = Self.result(status, brand: existing.card.brand)
            if let previous = existing.threeDS {
                result.transactionId = previous.transactionId
                result.dsTransactionId = previous.dsTransactionId
            }
            authentication.threeDS = result
            try await write(authentication, over: existing)
            return authentication
        }
    }

    private func write(_ authentication: PayerAuthentication, over existing: PayerAuthentication?) async throws {
        let written =
            if let existing {
                try await store.replaceAuthentication(authentication, expectedRevision: existing.revision)
            } else {
                try await store.insertAuthentication(authentication)
            }
        guard written else { throw AuthenticationRejection.changed }
    }

    private static func awaitsPayerAuthentication(_ status: AuthenticationStatus) -> Bool {
        status == .available || status == .notSupported
    }

    /// The 3DS server's answer for `status`: an authenticated payer gets the brand's ECI and an
    /// authentication token (the simulated CAVV/AAV, 20 random bytes as base64).
    private static func result(_ status: ThreeDSTransactionStatus, brand: CardBrand) -> ThreeDSResult {
        let mastercard = brand.scheme == "MASTERCARD"
        var eci: String?
        var token: String?
        if status == .authenticated {
            eci = mastercard ? "02" : "05"
            token = Data(randomBytes(20)).base64EncodedString()
        } else if status == .notAuthenticated {
            eci = mastercard ? "00" : "07"
        }
        return ThreeDSResult(
            transactionId: UUID().uuidString.lowercased(),
            dsTransactionId: UUID().uuidString.lowercased(),
            protocolVersion: "2.2.0",
            transactionStatus: status,
            acsEci: eci,
            authenticationToken: token
        )
    }

    private static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    private static func randomHex(bytes: Int) -> String {
        randomBytes(bytes).map { String(format: "%02x", $0) }.joined()
    }
}
