import SwiftASN1

/// Small, strict accessors for walking BER trees by hand.
extension ASN1Node {
    var children: [ASN1Node] {
        get throws(CMSFormatError) {
            guard case .constructed(let collection) = content else {
                throw CMSFormatError("expected a constructed \(identifier) element")
            }
            return Array(collection)
        }
    }

    func children(expecting expected: ASN1Identifier, _ what: String) throws(CMSFormatError) -> [ASN1Node] {
        guard identifier == expected else { throw CMSFormatError("\(what) has tag \(identifier), expected \(expected)") }
        return try children
    }

    func primitiveBytes(expecting expected: ASN1Identifier, _ what: String) throws(CMSFormatError) -> ArraySlice<UInt8> {
        guard identifier == expected, case .primitive(let bytes) = content else {
            throw CMSFormatError("\(what) is not a primitive \(expected)")
        }
        return bytes
    }

    func objectIdentifier(_ what: String) throws(CMSFormatError) -> ASN1ObjectIdentifier {
        do {
            return try ASN1ObjectIdentifier(derEncoded: self)
        } catch {
            throw CMSFormatError("\(what) is not an object identifier")
        }
    }

    /// The algorithm OID of an AlgorithmIdentifier (parameters, NULL or absent, are not inspected).
    func algorithmIdentifier(_ what: String) throws(CMSFormatError) -> ASN1ObjectIdentifier {
        let parts = try children(expecting: .sequence, what)
        guard let first = parts.first else { throw CMSFormatError("\(what) is empty") }
        return try first.objectIdentifier(what)
    }

    func isContextSpecific(_ number: UInt) -> Bool {
        identifier == ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}

/// Why a CMS structure could not be read; becomes a signatureInvalid error.
struct CMSFormatError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
