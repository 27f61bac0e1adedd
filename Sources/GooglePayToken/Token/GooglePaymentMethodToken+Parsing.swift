import WireJSON

extension GooglePaymentMethodToken {
    /// The most signatures of the intermediate key read (Google sends one per root key in use).
    static let maxIntermediateSignatures = 8
    /// A token is a few kilobytes; anything far larger is refused before it is parsed.
    static let maxTokenBytes = 64 * 1024

    /// Parses the token's JSON text (the `paymentMethodData.tokenizationData.token` string).
    public init(parsing text: String) throws(GooglePayTokenError) {
        try self.init(jsonBytes: Array(text.utf8))
    }

    /// Parses the token's JSON bytes.
    public init<Bytes: Collection<UInt8>>(jsonBytes: Bytes) throws(GooglePayTokenError) {
        guard jsonBytes.count <= Self.maxTokenBytes else {
            throw GooglePayTokenError(.malformedToken, "the token is larger than \(Self.maxTokenBytes) bytes")
        }
        var reader = try TokenObjectReader.parse(jsonBytes, path: "")
        let versionText = try reader.string("protocolVersion")
        guard let version = ProtocolVersion(rawValue: versionText) else {
            throw GooglePayTokenError(
                .unsupportedVersion,
                "protocolVersion \"\(versionText.prefix(20))\" is not ECv1, ECv2 or ECv2SigningOnly",
                field: "protocolVersion"
            )
        }
        let signature = try reader.base64("signature")
        let signedMessage = try reader.string("signedMessage")
        var intermediate: IntermediateSigningKey?
        if version.usesIntermediateKey {
            var keyReader = try TokenObjectReader(reader.value("intermediateSigningKey"), path: "intermediateSigningKey")
            let signedKey = try keyReader.string("signedKey")
            let elements = try keyReader.array("signatures")
            guard (1...Self.maxIntermediateSignatures).contains(elements.count) else {
                throw keyReader.failure("signatures", "must hold 1 to \(Self.maxIntermediateSignatures) signatures")
            }
            var signatures: [[UInt8]] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let text) = element, let bytes = StrictBase64.decode(text) else {
                    throw keyReader.failure("signatures[\(index)]", "must be a base64 string")
                }
                signatures.append(bytes)
            }
            try keyReader.finish()
            intermediate = IntermediateSigningKey(signedKey: signedKey, signatures: signatures)
        }
        try reader.finish()
        self.init(protocolVersion: version, signature: signature, intermediateSigningKey: intermediate, signedMessage: signedMessage)
    }
}
