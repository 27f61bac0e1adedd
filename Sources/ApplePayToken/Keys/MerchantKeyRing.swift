import X509

/// All payment processing keys configured for one merchant, tried by publicKeyHash.
///
/// Apple lets merchants rotate keys and tokens for the old key keep arriving for a while, so a
/// ring holds any number; the first identity with a given hash wins.
public struct MerchantKeyRing: Sendable {
    public let identities: [MerchantIdentity]
    private let byPublicKeyHash: [[UInt8]: MerchantIdentity]

    public init(_ identities: [MerchantIdentity]) {
        self.identities = identities
        var index: [[UInt8]: MerchantIdentity] = [:]
        for identity in identities where index[identity.publicKeyHash] == nil {
            index[identity.publicKeyHash] = identity
        }
        self.byPublicKeyHash = index
    }

    public func identity(forPublicKeyHash hash: [UInt8]) -> MerchantIdentity? {
        byPublicKeyHash[hash]
    }
}

extension MerchantKeyRing {
    /// A ring from loose key material: each certificate is paired with the private key it belongs
    /// to (whatever order they came in); keys without a certificate use `merchantIdentifier`.
    /// The ring keeps the order of `privateKeys`.
    public init(
        privateKeys: [MerchantIdentity.PrivateKey],
        certificates: [Certificate],
        merchantIdentifier: String?
    ) throws(ApplePayTokenError) {
        var unpaired = certificates
        var identities: [MerchantIdentity] = []
        for (index, key) in privateKeys.enumerated() {
            if let match = unpaired.firstIndex(where: { $0.publicKey == key.certificatePublicKey }) {
                identities.append(try MerchantIdentity(certificate: unpaired.remove(at: match), privateKey: key))
            } else if let merchantIdentifier {
                identities.append(MerchantIdentity(merchantIdentifier: merchantIdentifier, privateKey: key))
            } else {
                throw ApplePayTokenError(
                    .invalidKeyMaterial,
                    "private key \(index + 1) has no matching certificate and no merchant identifier was given"
                )
            }
        }
        guard unpaired.isEmpty else {
            throw ApplePayTokenError(
                .invalidKeyMaterial,
                "\(unpaired.count) certificate(s) belong to none of the private keys given"
            )
        }
        self.init(identities)
    }
}
