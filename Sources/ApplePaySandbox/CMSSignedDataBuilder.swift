import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import X509
import _CryptoExtras

/// Builds the detached CMS SignedData (RFC 5652) of a token's `signature`, shaped like Apple's:
/// version 1, one SHA-256 digest algorithm with NULL parameters, detached id-data content, the
/// leaf listed before the intermediate, one signer named by issuer and serial number, signed
/// attributes contentType, signingTime and messageDigest. The outer ContentInfo, its [0] and the
/// SignedData use indefinite lengths as Apple's do; everything inside is DER.
struct CMSSignedDataBuilder {
    enum SignerKey {
        case ec(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let signerCertificate: Certificate
    let signerKey: SignerKey
    /// Listed after the signer's certificate, in this order.
    let otherCertificates: [Certificate]

    /// The BER-encoded ContentInfo signing `content` at `signingTime`.
    func detachedSignature(for content: [UInt8], signingTime: Date) throws -> [UInt8] {
        let attributes = try signedAttributes(
            messageDigest: Array(SHA256.hash(data: content)),
            signingTime: signingTime
        )
        // RFC 5652 5.4: the signature covers the attributes encoded as a DER SET (tag 0x31), while
        // the SignerInfo carries them as [0] IMPLICIT (tag 0xA0) with the same contents.
        let signature = try sign(Self.tagged(0x31, attributes.joined()))

        var signedData = DER.Serializer()
        try signedData.serialize(1)
        try signedData.appendConstructedNode(identifier: .set) { set in
            try Self.serializeAlgorithm(OID.sha256, nullParameters: true, into: &set)
        }
        try signedData.appendConstructedNode(identifier: .sequence) { encapsulated in
            try encapsulated.serialize(OID.data)
        }
        let certificates = try ([signerCertificate] + otherCertificates).map { try $0.derBytes }
        // Not a DER SET OF (that would sort them): real tokens list the leaf first.
        signedData.serializeRawBytes(Self.tagged(0xA0, certificates.joined()))
        let signerInfo = try self.signerInfo(attributes: attributes, signature: signature)
        signedData.appendConstructedNode(identifier: .set) { set in
            set.serializeRawBytes(signerInfo)
        }

        var oid = DER.Serializer()
        try oid.serialize(OID.signedData)
        let endOfContents: [UInt8] = [0, 0]
        // ContentInfo { contentType, [0] EXPLICIT SignedData }, each with indefinite length (0x80).
        return [0x30, 0x80] + oid.serializedBytes + [0xA0, 0x80, 0x30, 0x80] + signedData.serializedBytes
            + endOfContents + endOfContents + endOfContents
    }

    /// contentType, signingTime and messageDigest, each a DER Attribute, in DER SET order
    /// (OpenSSL re-sorts the SET before verifying, so any other order would fail there).
    private func signedAttributes(messageDigest: [UInt8], signingTime: Date) throws -> [[UInt8]] {
        func attribute(_ oid: ASN1ObjectIdentifier, _ value: (inout DER.Serializer) throws -> Void) throws -> [UInt8] {
            var serializer = DER.Serializer()
            try serializer.appendConstructedNode(identifier: .sequence) { sequence in
                try sequence.serialize(oid)
                try sequence.appendConstructedNode(identifier: .set) { try value(&$0) }
            }
            return serializer.serializedBytes
        }
        let attributes = [
            try attribute(OID.contentType) { try $0.serialize(OID.data) },
            try attribute(OID.signingTime) { try Self.serializeTime(signingTime, into: &$0) },
            try attribute(OID.messageDigest) { try $0.serialize(ASN1OctetString(contentBytes: messageDigest[...])) },
        ]
        return attributes.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private func signerInfo(attributes: [[UInt8]], signature: [UInt8]) throws -> [UInt8] {
        let identifier = try signerCertificate.issuerAndSerialNumberDER
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { info in
            try info.serialize(1)
            info.serializeRawBytes(Self.tagged(0x30, [identifier.issuer, identifier.serialNumber].joined()))
            try Self.serializeAlgorithm(OID.sha256, nullParameters: true, into: &info)
            info.serializeRawBytes(Self.tagged(0xA0, attributes.joined()))
            switch signerKey {
            case .ec: try Self.serializeAlgorithm(OID.ecdsaWithSHA256, nullParameters: false, into: &info)
            case .rsa: try Self.serializeAlgorithm(OID.sha256WithRSAEncryption, nullParameters: true, into: &info)
            }
            try info.serialize(ASN1OctetString(contentBytes: signature[...]))
        }
        return serializer.serializedBytes
    }

    private func sign(_ bytes: [UInt8]) throws -> [UInt8] {
        switch signerKey {
        case .ec(let key): Array(try key.signature(for: bytes).derRepresentation)
        case .rsa(let key): Array(try key.signature(for: bytes, padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }

    /// AlgorithmIdentifier: digest and RSA algorithms carry NULL parameters, ECDSA none (RFC 5758).
    private static func serializeAlgorithm(
        _ oid: ASN1ObjectIdentifier,
        nullParameters: Bool,
        into serializer: inout DER.Serializer
    ) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { algorithm in
            try algorithm.serialize(oid)
            if nullParameters { try algorithm.serialize(ASN1Null()) }
        }
    }

    /// UTCTime for 1950 through 2049, GeneralizedTime otherwise (RFC 5652 11.3), in whole seconds.
    private static func serializeTime(_ date: Date, into serializer: inout DER.Serializer) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let wholeSeconds = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: wholeSeconds)
        guard let year = parts.year, let month = parts.month, let day = parts.day, let hours = parts.hour,
            let minutes = parts.minute, let seconds = parts.second
        else { throw SandboxError("the signing time cannot be expressed in UTC") }
        if (1950..<2050).contains(year) {
            try serializer.serialize(
                UTCTime(year: year, month: month, day: day, hours: hours, minutes: minutes, seconds: seconds)
            )
        } else {
            try serializer.serialize(
                GeneralizedTime(
                    year: year,
                    month: month,
                    day: day,
                    hours: hours,
                    minutes: minutes,
                    seconds: seconds,
                    fractionalSeconds: 0
                )
            )
        }
    }

    /// A definite-length element with the given single-octet tag around already-encoded contents.
    static func tagged(_ tag: UInt8, _ contents: some Collection<UInt8>) -> [UInt8] {
        DERElement.encode(tag: tag, [ArraySlice(contents)])
    }
}
