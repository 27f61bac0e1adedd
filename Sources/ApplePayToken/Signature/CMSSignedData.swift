import SwiftASN1

/// The parts of a detached CMS SignedData (RFC 5652) that Apple's step 1 needs, read with the BER
/// rules: real token signatures use indefinite lengths and list the leaf before the intermediate,
/// which strict DER readers reject.
///
/// BER is lax in its encodings, but the structure is checked as strictly as Apple produces it, the
/// parts no signature covers included (tags, versions, algorithm sets, BIT STRING padding, trailing
/// bytes): a verifier that accepts altered copies of a signature invites confusion about which
/// bytes were checked, even when the signed content and the chain still verify.
struct CMSSignedData {
    /// Each certificate's encoding, in the order the SET lists them.
    var certificates: [ArraySlice<UInt8>]
    var signer: CMSSignerInfo

    init(berEncoded bytes: [UInt8]) throws(CMSFormatError) {
        let outer = try BERElement.parse(bytes[...])
        guard outer.tag == BERElement.sequence else { throw CMSFormatError("the signature is not a CMS ContentInfo") }
        let contentInfo = try outer.children()
        guard contentInfo.count == 2, contentInfo[0].isObjectIdentifier(OID.signedDataContents),
            contentInfo[1].tag == BERElement.contextSpecificConstructed(0)
        else { throw CMSFormatError("the signature is not a CMS SignedData") }
        let wrapped = try contentInfo[1].children()
        guard wrapped.count == 1, wrapped[0].tag == BERElement.sequence else {
            throw CMSFormatError("SignedData is malformed")
        }

        // version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos: Apple sends
        // no revocation information and nothing else.
        let fields = try wrapped[0].children()
        guard fields.count == 5, fields[3].tag == BERElement.contextSpecificConstructed(0),
            fields[4].tag == BERElement.set
        else { throw CMSFormatError("SignedData does not hold exactly certificates and one set of signers") }
        let encapsulated = try fields[2].children()
        guard fields[2].tag == BERElement.sequence, let contentType = encapsulated.first,
            contentType.isObjectIdentifier(OID.dataContents)
        else { throw CMSFormatError("encapContentInfo is not id-data") }
        guard encapsulated.count == 1 else { throw CMSFormatError("the signature is not detached") }

        // Apple's encoder uses indefinite lengths on the envelope (ContentInfo, its [0], SignedData,
        // encapContentInfo, certificates) and nowhere else: any other element that has one is an
        // altered copy, whatever its content.
        try fields[0].requireDefinite("the SignedData version")
        try fields[1].requireDefinite("digestAlgorithms")
        try fields[4].requireDefinite("signerInfos")
        // Inside each certificate the definite lengths are checked by requireDefiniteCertificates,
        // on the cold path only.
        let certificates = try fields[3].children().map { element throws(CMSFormatError) in
            try element.certificateEncoding()
        }
        // The leaf and its intermediate, once each (ChainEvaluator checks the leaf comes first).
        guard certificates.count == 2, !certificates[0].elementsEqual(certificates[1]) else {
            throw CMSFormatError(
                "the signature carries \(certificates.count) certificates; Apple's carries the leaf and its intermediate, once each"
            )
        }
        let signerInfos = try fields[4].children()
        guard signerInfos.count == 1 else {
            throw CMSFormatError("the signature has \(signerInfos.count) signers, Apple signs with exactly one")
        }
        let signer = try CMSSignerInfo(signerInfos[0])
        // RFC 5652 5.1: with only X.509 certificates, id-data and version-1 signers, version 1;
        // a signer identified by subjectKeyIdentifier (version 3) makes it 3.
        guard fields[0].isSmallInteger(signer.version) else {
            throw CMSFormatError("the SignedData version does not match its signer (expected \(signer.version))")
        }
        // The same algorithm encoded the same way: Apple writes SHA-256 with NULL parameters in
        // older tokens and without them in newer ones, but never one way here and another there.
        let digestAlgorithms = try fields[1].children()
        guard fields[1].tag == BERElement.set, digestAlgorithms.count == 1,
            digestAlgorithms[0].encoded.elementsEqual(signer.digestAlgorithmEncoding)
        else { throw CMSFormatError("digestAlgorithms is not exactly the signer's digest algorithm") }
        self.certificates = certificates
        self.signer = signer
    }

    /// Throws when a certificate has an indefinite length anywhere inside. Walking the hundred
    /// elements of two certificates was a tenth of a warm token, so the verifier calls this only
    /// before evaluating a chain: a cached verdict is keyed by the certificates' exact bytes,
    /// which passed this check when the verdict was made.
    func requireDefiniteCertificates() throws(CMSFormatError) {
        for certificate in certificates {
            try BERElement.parse(certificate).requireDefinite("a certificate")
        }
    }
}

extension BERElement {
    func isObjectIdentifier(_ contents: [UInt8]) -> Bool {
        tag == BERElement.objectIdentifier && self.contents.elementsEqual(contents)
    }

    /// An INTEGER of one content octet with this value (CMS versions).
    func isSmallInteger(_ value: UInt8) -> Bool {
        tag == BERElement.integer && contents.count == 1 && contents.first == value
    }

    /// A certificate's encoding, after checking its outer shape: tbsCertificate, the signature
    /// algorithm, and a signature BIT STRING with no unused bits. The chain check parses the rest,
    /// but reads the signature's octets without its unused-bits octet.
    func certificateEncoding() throws(CMSFormatError) -> ArraySlice<UInt8> {
        guard tag == BERElement.sequence else { throw CMSFormatError("an entry of certificates is not a certificate") }
        let parts = try children()
        guard parts.count == 3, parts[0].tag == BERElement.sequence, parts[1].tag == BERElement.sequence,
            parts[2].tag == BERElement.bitString, parts[2].contents.first == 0
        else { throw CMSFormatError("a certificate's signature is not a whole-octet BIT STRING") }
        return encoded
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
    /// 1 for issuerAndSerialNumber, 3 for subjectKeyIdentifier (RFC 5652 5.3).
    var version: UInt8
    /// The signer identifier as encoded: part of the chain cache key.
    var identifierBytes: ArraySlice<UInt8>
    /// Content octets of the digest algorithm's OID.
    var digestAlgorithm: ArraySlice<UInt8>
    /// The digest AlgorithmIdentifier as encoded, parameters included.
    var digestAlgorithmEncoding: ArraySlice<UInt8>
    /// The signature AlgorithmIdentifier as encoded, parameters included: the verifier takes only
    /// the exact encodings Apple writes.
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
        // version, sid, digestAlgorithm, signedAttrs, signatureAlgorithm, signature: Apple adds no
        // unsigned attributes.
        guard fields.count == 6 else { throw CMSFormatError("SignerInfo does not have exactly six fields") }
        let sid = fields[1]
        identifierBytes = sid.encoded
        switch sid.tag {
        case BERElement.sequence:
            let parts = try sid.children()
            guard parts.count == 2, parts[0].tag == BERElement.sequence, parts[1].tag == BERElement.integer else {
                throw CMSFormatError("issuerAndSerialNumber is malformed")
            }
            identifier = .issuerAndSerialNumber(issuer: parts[0].encoded, serial: parts[1].contents)
            version = 1
        case 0x80:
            identifier = .subjectKeyIdentifier(sid.contents)
            version = 3
        default:
            throw CMSFormatError("the signer identifier is malformed")
        }
        guard fields[0].isSmallInteger(version) else {
            throw CMSFormatError("the SignerInfo version does not match its signer identifier (expected \(version))")
        }
        digestAlgorithm = try fields[2].algorithmIdentifier("digestAlgorithm")
        digestAlgorithmEncoding = fields[2].encoded
        guard fields[3].tag == BERElement.contextSpecificConstructed(0) else {
            throw CMSFormatError("the signer has no signed attributes")
        }
        let attributes = try fields[3].children()
        signedAttributesDER = DERElement.encode(tag: 0x31, attributes.map(\.encoded))
        _ = try fields[4].algorithmIdentifier("signatureAlgorithm")
        signatureAlgorithm = fields[4].encoded
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
    /// The algorithm OID's content octets. Its parameters must be absent or NULL: every algorithm
    /// Apple signs with (SHA-256, ECDSA, RSA) has no others.
    func algorithmIdentifier(_ what: String) throws(CMSFormatError) -> ArraySlice<UInt8> {
        let parts = try children()
        guard tag == BERElement.sequence, let first = parts.first, first.tag == BERElement.objectIdentifier,
            parts.count == 1 || (parts.count == 2 && parts[1].tag == BERElement.null && parts[1].contents.isEmpty)
        else { throw CMSFormatError("\(what) is malformed") }
        return first.contents
    }

    /// An OCTET STRING's octets. BER may split one into a constructed string of chunks; Apple
    /// writes the signature whole, so a chunked one is an altered copy.
    func octetString(_ what: String) throws(CMSFormatError) -> ArraySlice<UInt8> {
        switch tag {
        case BERElement.octetString:
            return contents
        case BERElement.octetString | 0x20:
            throw CMSFormatError("\(what) is a chunked OCTET STRING; Apple writes it whole")
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
