import Foundation

/// Verifies and decrypts Apple Pay payment tokens exactly as Apple specifies (steps 1 to 4).
///
/// Give it the trust roots, the signing-time window and a clock; give each call the merchant's
/// key ring. It keeps no state but a bounded cache of verified certificate chains, so a warm
/// token costs one ECDSA verification and one ECDH (or one RSA decryption). Copies share the
/// cache; it is safe to call from many tasks at once.
///
/// ```swift
/// let decryptor = ApplePayTokenDecryptor()
/// let token = try PaymentToken(parsing: requestBody.paymentToken)
/// let result = try await decryptor.decrypt(token, using: keyRing)
/// print(result.paymentData)   // PAN masked in descriptions
/// ```
///
/// Steps 5 and 6 (replay, amount and currency, applicationData) need the merchant's order and
/// memory of earlier tokens; they belong to the caller.
public struct ApplePayTokenDecryptor: Sendable {
    public let trustRoots: TrustRoots
    /// How far the CMS signing time may be from the clock, either way (Apple: 5 minutes).
    public let signingTimeWindow: TimeInterval
    public let clock: @Sendable () -> Date
    private let cache: ChainVerdictCache
    private let links: ChainLinks
    private let newChainBudget: NewChainBudget?

    /// `newChainsPerSecond` bounds how many certificate chains not seen before are verified per
    /// second (each costs up to two P-384 verifications, and a forger makes one by changing a
    /// byte); a token beyond it is refused with ``ApplePayTokenError/Code/verificationBusy``,
    /// undecided. nil: no bound.
    public init(
        trustRoots: TrustRoots = .apple,
        signingTimeWindow: TimeInterval = 300,
        chainCacheCapacity: Int = 256,
        newChainsPerSecond: Int? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.trustRoots = trustRoots
        self.signingTimeWindow = signingTimeWindow
        self.clock = clock
        self.cache = ChainVerdictCache(capacity: chainCacheCapacity)
        self.links = ChainLinks(roots: trustRoots.certificates)
        self.newChainBudget = newChainsPerSecond.map { NewChainBudget(perSecond: $0, clock: clock) }
    }

    // The async entry points run on the caller's executor (nonsending): a warm token never
    // suspends, so it costs no executor hop.

    /// Step 1 alone: the signature, its chain to the trust roots and the signing time.
    nonisolated(nonsending) public func verifySignature(of token: PaymentToken) async throws(ApplePayTokenError) -> VerifiedSignature {
        let verifier = TokenSignatureVerifier(
            evaluator: ChainEvaluator(trustRoots: trustRoots, links: links, budget: newChainBudget),
            cache: cache,
            signingTimeWindow: signingTimeWindow
        )
        return try await verifier.verify(token, now: clock())
    }

    /// Steps 1 to 4: verify, pick the merchant key by publicKeyHash, restore the key, decrypt.
    nonisolated(nonsending) public func decrypt(
        _ token: PaymentToken,
        using keyRing: MerchantKeyRing
    ) async throws(ApplePayTokenError)
        -> DecryptedPaymentToken
    {
        let signature = try await verifySignature(of: token)
        guard let identity = keyRing.identity(forPublicKeyHash: token.header.publicKeyHash) else {
            throw ApplePayTokenError(
                .noMatchingKey,
                "no configured key matches publicKeyHash \(Base64.encode(token.header.publicKeyHash)) "
                    + "(configure the Payment Processing certificate's key, not the Merchant Identity one)",
                field: "header.publicKeyHash"
            )
        }
        let key = try SymmetricKeyRestorer.restore(token, with: identity)
        let plaintext = try PaymentDataCipher.open(token.data, using: key)
        return DecryptedPaymentToken(
            version: token.version,
            transactionId: token.header.transactionId,
            replayKey: token.replayKey,
            applicationData: token.header.applicationData,
            signingTime: signature.signingTime,
            publicKeyHash: identity.publicKeyHash,
            paymentData: try PaymentData(jsonBytes: plaintext)
        )
    }

    /// How often verified chains were reused.
    public var chainCacheStatistics: ChainCacheStatistics { cache.statistics }
}

/// A verified, decrypted token: what steps 5 to 7 work with.
public struct DecryptedPaymentToken: Sendable, Hashable {
    public var version: PaymentToken.Version
    /// Lower-case hex of the header's transaction id bytes.
    public var transactionId: String
    /// SHA-256 of the token's `data`: the key for replay protection (``PaymentToken/replayKey``).
    public var replayKey: [UInt8]
    /// SHA-256 of the payment request's applicationData, when it had any.
    public var applicationData: [UInt8]?
    public var signingTime: Date
    /// Which configured key decrypted it.
    public var publicKeyHash: [UInt8]
    public var paymentData: PaymentData
}
