import SwiftASN1

/// The parts of a detached CMS SignedData (RFC 5652) that Apple's step 1 needs, read with the BER
/// rules: real token signatures use indefinite lengths and list the leaf before the intermediate,
/// which strict DER readers reject.
struct CMSSignedData {
    /// Each certificate's encoding, in the order the SET lists them.
    var certificates: [ArraySlice<UInt8>]
    var signer: CMSSignerInfo

    init(berEncoded bytes: [UInt8]) throws(CMSFormatError) {
        let contentInfo = try BERElement.parse(bytes[...]).children()
        guard contentInfo.count == 2, contentInfo[0].isObjectIdentifier(OID.signedDataContents),
            contentInfo[1].tag == BERElement.contextSpecificConstructed(0)
        else { throw CMSFormatError("the signature is not a CMS SignedData") }
        let wrapped = try contentInfo[1].children()
        guard wrapped.count == 1, wrapped[0].tag == BERElement.sequence else {
            throw CMSFormatError("SignedData is malformed")
        }

        let fields = try wrapped[0].children()
        guard fields.count >= 4 else { throw CMSFormatError("SignedData has too few fields") }
        // fields[0] version, fields[1] digestAlgorithms: not needed beyond the signer's own digest algorithm.
        let encapsulated = try fields[2].children()
        guard fields[2].tag == BERElement.sequence, let contentType = encapsulated.first,
            contentType.isObjectIdentifier(OID.dataContents)
        else { throw CMSFormatError("encapContentInfo is not id-data") }
        guard encapsulated.count == 1 else { throw CMSFormatError("the signature is not detached") }

        var certificates: [ArraySlice<UInt8>] = []
        var signerInfos: [BERElement] = []
        for field in fields.dropFirst(3) {
            switch field.tag {
            case BERElement.contextSpecificConstructed(0):
                certificates = try field.children().map { element throws(CMSFormatError) in
                    guard element.tag == BERElement.sequence else {
                        throw CMSFormatError("an entry of certificates is not a certificate")
                    }
                    return element.encoded
                }
            case BERElement.contextSpecificConstructed(1):
                continue  // revocation info: not used by Apple, not consulted
            case BERElement.set:
                signerInfos = try field.children()
            default:
                throw CMSFormatError("SignedData has an unexpected field with tag \(field.tag)")
            }
        }
        guard signerInfos.count == 1 else {
            throw CMSFormatError("the signature has \(signerInfos.count) signers, Apple signs with exactly one")
        }
        self.certificates = certificates
        self.signer = try CMSSignerInfo(signerInfos[0])
    }
}

extension BERElement {
    func isObjectIdentifier(_ contents: [UInt8]) -> Bool {
        tag == BERElement.objectIdentifier && self.contents.elementsEqual(contents)
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
    /// Content octets of the digest algorithm's OID.
    var digestAlgorithm: ArraySlice<UInt8>
    /// Content octets of the signature algorithm's OID.
    var signatureAlgorithm: ArraySlice<UInt8>
    /// A slice of the signature bytes it was read from (except for a chunked BER string).
    var signature: ArraySlice<UInt8>
    /// The signed attributes re-encoded as a DER SET: the bytes the signature covers.
    var signedAttributesDER: [UInt8]
    var messageDigest: ArraySlice<UInt8>
    var signingTime: ASN1Time?

    init(_ element: BERElement) throws(CMSFormatError) {
        guard element.tag == BERElement.sequence else { throw CMSFormatError("SignerInfo is not a SEQUENCE") }
        let fields = try element.children()
        guard fields.count >= 6 else { throw CMSFormatError("SignerInfo has too few fields") }
        let sid = fields[1]
        identifierBytes = sid.encoded
        switch sid.tag {
        case BERElement.sequence:
            let parts = try sid.children()
            guard parts.count == 2, parts[1].tag == BERElement.integer else {
                throw CMSFormatError("issuerAndSerialNumber is malformed")
            }
            identifier = .issuerAndSerialNumber(issuer: parts[0].encoded, serial: parts[1].contents)
        case 0x80:
            identifier = .subjectKeyIdentifier(sid.contents)
        default:
            throw CMSFormatError("the signer identifier is malformed")
        }
        digestAlgorithm = try fields[2].algorithmIdentifier("digestAlgorithm")
        guard fields[3].tag == BERElement.contextSpecificConstructed(0) else {
            throw CMSFormatError("the signer has no signed attributes")
        }
        let attributes = try fields[3].children()
        signedAttributesDER = DERElement.encode(tag: 0x31, attributes.map(\.encoded))
        signatureAlgorithm = try fields[4].algorithmIdentifier("signatureAlgorithm")
        signature = try fields[5].octetString("signature")

        var contentType: ArraySlice<UInt8>?
        var messageDigest: ArraySlice<UInt8>?
        for attribute in attributes {
            let parts = try attribute.children()
            guard attribute.tag == BERElement.sequence, parts.count == 2, parts[0].tag == BERElement.objectIdentifier,
                parts[1].tag == BERElement.set
            else { throw CMSFormatError("an attribute is malformed") }
            let values = try parts[1].children()
            guard values.count == 1 else { continue }
            switch Array(parts[0].contents) {
            case OID.contentTypeContents:
                guard values[0].tag == BERElement.objectIdentifier else { throw CMSFormatError("contentType is malformed") }
                contentType = values[0].contents
            case OID.messageDigestContents:
                guard values[0].tag == BERElement.octetString else { throw CMSFormatError("messageDigest is malformed") }
                messageDigest = values[0].contents
            case OID.signingTimeContents:
                signingTime = try ASN1Time(values[0])
            default:
                continue
            }
        }
        guard let contentType, contentType.elementsEqual(OID.dataContents) else {
            throw CMSFormatError("the contentType attribute is missing or not id-data")
        }
        guard let messageDigest else { throw CMSFormatError("the messageDigest attribute is missing") }
        self.messageDigest = messageDigest
    }
}

extension BERElement {
    /// The algorithm OID's content octets (parameters, NULL or absent, are not inspected).
    func algorithmIdentifier(_ what: String) throws(CMSFormatError) -> ArraySlice<UInt8> {
        guard tag == BERElement.sequence, let first = try children().first, first.tag == BERElement.objectIdentifier
        else { throw CMSFormatError("\(what) is malformed") }
        return first.contents
    }

    /// An OCTET STRING's octets, also when BER splits it into a constructed string of chunks.
    func octetString(_ what: String) throws(CMSFormatError) -> ArraySlice<UInt8> {
        switch tag {
        case BERElement.octetString:
            return contents
        case BERElement.octetString | 0x20:
            var octets: [UInt8] = []
            for chunk in try children() { octets += try chunk.octetString(what) }
            return octets[...]
        default:
            throw CMSFormatError("\(what) is not an OCTET STRING")
        }
    }
}

/// DER encoding of already-encoded elements under one tag, kept in the order given (for signed
/// attributes: the order that was signed).
package enum DERElement {
    package static func encode(tag: UInt8, _ elements: [ArraySlice<UInt8>]) -> [UInt8] {
        let length = elements.reduce(0) { $0 + $1.count }
        var out: [UInt8] = [tag]
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
