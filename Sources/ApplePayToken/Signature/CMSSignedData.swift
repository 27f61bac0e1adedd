import SwiftASN1

/// The parts of a detached CMS SignedData (RFC 5652) that Apple's step 1 needs, read with the BER
/// rules: real token signatures use indefinite lengths and list the leaf before the intermediate,
/// which strict DER readers reject.
struct CMSSignedData {
    /// Each certificate's encoding, in the order the SET lists them.
    var certificates: [ArraySlice<UInt8>]
    var signer: CMSSignerInfo

    init(berEncoded bytes: [UInt8]) throws(CMSFormatError) {
        let root: ASN1Node
        do {
            root = try BER.parse(bytes)
        } catch {
            throw CMSFormatError("the signature is not BER-encoded ASN.1")
        }
        let contentInfo = try root.children(expecting: .sequence, "ContentInfo")
        guard contentInfo.count == 2, try contentInfo[0].objectIdentifier("contentType") == OID.signedData,
            contentInfo[1].isContextSpecific(0)
        else { throw CMSFormatError("the signature is not a CMS SignedData") }
        let wrapped = try contentInfo[1].children
        guard wrapped.count == 1 else { throw CMSFormatError("SignedData wrapper holds \(wrapped.count) elements") }

        let fields = try wrapped[0].children(expecting: .sequence, "SignedData")
        guard fields.count >= 4 else { throw CMSFormatError("SignedData has too few fields") }
        // fields[0] version, fields[1] digestAlgorithms: not needed beyond the signer's own digest algorithm.
        let encapsulated = try fields[2].children(expecting: .sequence, "encapContentInfo")
        guard let contentType = encapsulated.first, try contentType.objectIdentifier("eContentType") == OID.data
        else { throw CMSFormatError("encapContentInfo is not id-data") }
        guard encapsulated.count == 1 else { throw CMSFormatError("the signature is not detached") }

        var certificates: [ArraySlice<UInt8>] = []
        var signerInfos: [ASN1Node] = []
        for field in fields.dropFirst(3) {
            if field.isContextSpecific(0) {
                certificates = try field.children.map { node throws(CMSFormatError) in
                    guard node.identifier == .sequence else { throw CMSFormatError("an entry of certificates is not a certificate") }
                    return node.encodedBytes
                }
            } else if field.isContextSpecific(1) {
                continue  // revocation info: not used by Apple, not consulted
            } else {
                signerInfos = try field.children(expecting: .set, "signerInfos")
            }
        }
        guard signerInfos.count == 1 else {
            throw CMSFormatError("the signature has \(signerInfos.count) signers, Apple signs with exactly one")
        }
        self.certificates = certificates
        self.signer = try CMSSignerInfo(signerInfos[0])
    }
}

/// One SignerInfo: who signed, with what, and the signed attributes.
struct CMSSignerInfo {
    enum Identifier: Hashable {
        /// DER of the issuer Name and the serial number's content octets.
        case issuerAndSerialNumber(issuer: ArraySlice<UInt8>, serial: ArraySlice<UInt8>)
        case subjectKeyIdentifier(ArraySlice<UInt8>)
    }

    var identifier: Identifier
    /// The signer identifier as encoded: part of the chain cache key.
    var identifierBytes: ArraySlice<UInt8>
    var digestAlgorithm: ASN1ObjectIdentifier
    var signatureAlgorithm: ASN1ObjectIdentifier
    var signature: ArraySlice<UInt8>
    /// The signed attributes re-encoded as a DER SET: the bytes the signature covers.
    var signedAttributesDER: [UInt8]
    var messageDigest: ArraySlice<UInt8>
    var signingTime: ASN1Time?

    init(_ node: ASN1Node) throws(CMSFormatError) {
        let fields = try node.children(expecting: .sequence, "SignerInfo")
        guard fields.count >= 5 else { throw CMSFormatError("SignerInfo has too few fields") }
        let sid = fields[1]
        identifierBytes = sid.encodedBytes
        if sid.identifier == .sequence {
            let parts = try sid.children
            guard parts.count == 2 else { throw CMSFormatError("issuerAndSerialNumber is malformed") }
            identifier = .issuerAndSerialNumber(
                issuer: parts[0].encodedBytes, serial: try parts[1].primitiveBytes(expecting: .integer, "serialNumber"))
        } else if sid.isContextSpecific(0), case .primitive(let keyIdentifier) = sid.content {
            identifier = .subjectKeyIdentifier(keyIdentifier)
        } else {
            throw CMSFormatError("the signer identifier is malformed")
        }
        digestAlgorithm = try fields[2].algorithmIdentifier("digestAlgorithm")

        var index = 3
        guard fields[index].isContextSpecific(0) else {
            throw CMSFormatError("the signer has no signed attributes")
        }
        let attributes = try fields[index].children
        signedAttributesDER = DERSet.encode(attributes.map(\.encodedBytes))
        index += 1
        guard fields.count > index + 1 else { throw CMSFormatError("SignerInfo has no signature") }
        signatureAlgorithm = try fields[index].algorithmIdentifier("signatureAlgorithm")
        signature = try fields[index + 1].primitiveBytes(expecting: .octetString, "signature")

        var contentType: ASN1ObjectIdentifier?
        var messageDigest: ArraySlice<UInt8>?
        for attribute in attributes {
            let parts = try attribute.children(expecting: .sequence, "Attribute")
            guard parts.count == 2 else { throw CMSFormatError("an attribute is malformed") }
            let type = try parts[0].objectIdentifier("attribute type")
            let values = try parts[1].children(expecting: .set, "attribute values")
            guard values.count == 1 else { continue }
            switch type {
            case OID.contentType: contentType = try values[0].objectIdentifier("contentType")
            case OID.messageDigest: messageDigest = try values[0].primitiveBytes(expecting: .octetString, "messageDigest")
            case OID.signingTime: signingTime = try ASN1Time(values[0])
            default: continue
            }
        }
        guard contentType == OID.data else { throw CMSFormatError("the contentType attribute is missing or not id-data") }
        guard let messageDigest else { throw CMSFormatError("the messageDigest attribute is missing") }
        self.messageDigest = messageDigest
    }
}

/// DER SET encoding of already-encoded elements, kept in the order given (the order that was signed).
enum DERSet {
    static func encode(_ elements: [ArraySlice<UInt8>]) -> [UInt8] {
        let length = elements.reduce(0) { $0 + $1.count }
        var out: [UInt8] = [0x31]
        if length < 0x80 {
            out.append(UInt8(length))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = length
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            out.append(0x80 | UInt8(lengthBytes.count))
            out += lengthBytes
        }
        out.reserveCapacity(out.count + length)
        for element in elements { out += element }
        return out
    }
}
