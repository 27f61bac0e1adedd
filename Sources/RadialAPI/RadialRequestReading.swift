/// What the Radial front end reads from a parsed body before it touches a store or a key: the
/// operation's request, checked against its schema and decoded. The routes call it, and so does
/// the request fuzzer (`Sources/RequestFuzzer`).
package enum RadialRequestReading {
    /// A `CreditCardAuthRequest`, decoded; throws the route's ``RadialFault``.
    package static func creditCardAuth(_ root: XMLElement) throws(RadialFault) {
        _ = try RadialCreditCardAuthRequest(root)
    }

    /// A `DecryptRequest`, decoded; throws the route's ``RadialFault``.
    package static func decrypt(_ root: XMLElement) throws(RadialFault) {
        _ = try decryptToken(root)
    }

    static let decryptRoot = "DecryptRequest"
    static let decryptWalletPath = "\(decryptRoot)/WalletPaymentInformation"

    /// The token of a `DecryptRequest`: its root, its schema, then the wallet's parts.
    static func decryptToken(_ root: XMLElement) throws(RadialFault) -> RadialWalletToken {
        guard root.name == decryptRoot else {
            throw RadialFault.invalid(root.name, "is not \(decryptRoot): this operation takes a \(decryptRoot)")
        }
        try RadialSchema.validate(root, against: RadialSchema.decrypt, path: decryptRoot)
        // Required by the schema just checked: a fault, never a crash, if the two ever disagree.
        guard let wallet = root.child("WalletPaymentInformation") else {
            throw RadialFault.invalid(decryptWalletPath, "is required")
        }
        return try RadialWalletToken(wallet, path: decryptWalletPath)
    }
}
