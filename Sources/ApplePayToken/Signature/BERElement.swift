/// One BER element, read without descending into definite-length contents.
///
/// SwiftASN1's `BER.parse` builds a node for everything, including the hundreds inside each
/// certificate, which on the warm path costs more than the signature check itself. CMS needs
/// only the outer structure, so this reader skips definite-length contents by their length and
/// walks indefinite-length ones just far enough to find their end-of-contents octets.
struct BERElement {
    /// The identifier octet (single-byte tags only: CMS uses no tag number above 30).
    var tag: UInt8
    /// The contents, without the end-of-contents octets of an indefinite-length element.
    var contents: ArraySlice<UInt8>
    /// The whole element as encoded, header included.
    var encoded: ArraySlice<UInt8>

    var isConstructed: Bool { tag & 0x20 != 0 }

    /// Encoded with an indefinite length (header octet 0x80).
    var isIndefinite: Bool { encoded.count > 1 && encoded[encoded.startIndex + 1] == 0x80 }

    /// Throws when this element or anything inside it has an indefinite length: Apple uses them
    /// only on the outer envelope, never inside signer infos, algorithm sets or certificates.
    func requireDefinite(_ what: String, depth: Int = 0) throws(CMSFormatError) {
        guard !isIndefinite else { throw CMSFormatError("\(what) has an indefinite length, which Apple never writes there") }
        guard isConstructed, depth < 8 else { return }
        // Child by child, with no array of them: a certificate holds a hundred elements, and
        // collecting each level's children was a third of reading the signature.
        var index = contents.startIndex
        while index < contents.endIndex {
            try BERElement.read(contents, &index, depth: 1).requireDefinite(what, depth: depth + 1)
        }
    }

    static let sequence: UInt8 = 0x30
    static let set: UInt8 = 0x31
    static let objectIdentifier: UInt8 = 0x06
    static let integer: UInt8 = 0x02
    static let octetString: UInt8 = 0x04
    static let bitString: UInt8 = 0x03
    static let null: UInt8 = 0x05
    static func contextSpecificConstructed(_ number: UInt8) -> UInt8 { 0xA0 | number }

    private static let maximumDepth = 32

    /// Reads exactly one element that fills `bytes`: nothing may follow it. The end-of-contents
    /// octets of indefinite-length elements are part of the element, so Apple's signatures (three
    /// nested indefinite lengths, six zero octets at the end) fill their bytes exactly.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(CMSFormatError) -> BERElement {
        var index = bytes.startIndex
        let element = try read(bytes, &index, depth: 0)
        guard index == bytes.endIndex else { throw CMSFormatError("trailing bytes after the signature") }
        return element
    }

    /// The elements inside a constructed element.
    func children() throws(CMSFormatError) -> [BERElement] {
        guard isConstructed else { throw CMSFormatError("expected a constructed element, found tag \(tag)") }
        var index = contents.startIndex
        var children: [BERElement] = []
        // Room for the children CMS has (at most 7, in a SignerInfo) from the start: growing one
        // element at a time cost 21 of a token AUTHORIZE's mallocs (363 per request, now 342).
        children.reserveCapacity(8)
        while index < contents.endIndex {
            children.append(try BERElement.read(contents, &index, depth: 1))
        }
        return children
    }

    /// Reads the element starting at `index` within `bytes` and moves `index` past it.
    private static func read(
        _ bytes: ArraySlice<UInt8>,
        _ index: inout Int,
        depth: Int
    ) throws(CMSFormatError)
        -> BERElement
    {
        guard depth < maximumDepth else { throw CMSFormatError("the signature nests too deeply") }
        let start = index
        guard bytes.endIndex - index >= 2 else { throw CMSFormatError("the signature ends inside an element") }
        let tag = bytes[index]
        let first = bytes[index + 1]
        index += 2
        guard tag & 0x1F != 0x1F else { throw CMSFormatError("multi-byte tags do not occur in CMS") }

        if first == 0x80 {
            // Indefinite length: constructed only; children until the end-of-contents octets 00 00.
            guard tag & 0x20 != 0 else { throw CMSFormatError("an indefinite-length element is not constructed") }
            let contentsStart = index
            while true {
                guard bytes.endIndex - index >= 2 else {
                    throw CMSFormatError("an indefinite-length element is not terminated")
                }
                if bytes[index] == 0, bytes[index + 1] == 0 {
                    let contentsEnd = index
                    index += 2
                    return BERElement(tag: tag, contents: bytes[contentsStart..<contentsEnd], encoded: bytes[start..<index])
                }
                _ = try read(bytes, &index, depth: depth + 1)
            }
        }

        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4, bytes.endIndex - index >= count else { throw CMSFormatError("an element length is malformed") }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            // BER allows padded lengths (81 05, 82 00 90); Apple writes the shortest form, so a
            // longer one is an altered copy rather than another encoder.
            guard length >= 0x80, length >> (8 * (count - 1)) != 0 else {
                throw CMSFormatError("an element length is not in its shortest form")
            }
        }
        guard bytes.endIndex - index >= length else { throw CMSFormatError("an element is longer than the signature") }
        let contents = bytes[index..<(index + length)]
        index += length
        return BERElement(tag: tag, contents: contents, encoded: bytes[start..<index])
    }
}
