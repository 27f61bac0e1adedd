/// One BER element, read without descending into definite-length contents.
///
/// SwiftASN1's `BER.parse` builds a node for everything, including the hundreds inside each
/// certificate, which on the warm path costs more than the signature check itself. CMS needs
/// only the outer structure, so this reader skips definite-length contents by their length and
/// walks indefinite-length ones just far enough to find their end-of-contents octets.
struct BERElement {
    /// The identifier octet (single-byte tags only: CMS uses no tag number above 30).
    var tag: UInt8
    /// The whole element as encoded, header included.
    var encoded: ArraySlice<UInt8>
    /// Where the contents start and end within `encoded` (without the end-of-contents octets of
    /// an indefinite-length element). Indices, not a second slice: each slice an element holds is
    /// a reference count raised and dropped as the element is copied, and with two per element
    /// (and an element for every one walked past) that counting was two thirds of reading a
    /// signature (perf of token-bench).
    private var contentsBounds: Range<Int>

    private init(_ bytes: ArraySlice<UInt8>, _ extent: Extent) {
        tag = extent.tag
        encoded = bytes[extent.start..<extent.end]
        contentsBounds = extent.contents
    }

    /// The contents, without the end-of-contents octets of an indefinite-length element.
    var contents: ArraySlice<UInt8> { encoded[contentsBounds] }

    var isConstructed: Bool { tag & 0x20 != 0 }

    /// Encoded with an indefinite length: its end-of-contents octets follow the contents.
    var isIndefinite: Bool { encoded.endIndex - contentsBounds.upperBound == 2 }

    /// Throws when this element or anything inside it has an indefinite length: Apple uses them
    /// only on the outer envelope, never inside signer infos, algorithm sets or certificates.
    func requireDefinite(_ what: String) throws(CMSFormatError) {
        guard !isIndefinite else { throw Self.indefinite(what) }
        guard isConstructed else { return }
        try Self.requireDefinite(encoded, within: contentsBounds, what, depth: 1)
    }

    /// Child by child, by indices only: a certificate holds a hundred elements.
    private static func requireDefinite(
        _ bytes: ArraySlice<UInt8>,
        within bounds: Range<Int>,
        _ what: String,
        depth: Int
    ) throws(CMSFormatError) {
        var index = bounds.lowerBound
        while index < bounds.upperBound {
            let child = try scan(bytes, &index, end: bounds.upperBound, depth: 1)
            guard !child.isIndefinite else { throw indefinite(what) }
            if child.tag & 0x20 != 0, depth < 8 { try requireDefinite(bytes, within: child.contents, what, depth: depth + 1) }
        }
    }

    private static func indefinite(_ what: String) -> CMSFormatError {
        CMSFormatError("\(what) has an indefinite length, which Apple never writes there")
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
        let extent = try scan(bytes, &index, end: bytes.endIndex, depth: 0)
        guard index == bytes.endIndex else { throw CMSFormatError("trailing bytes after the signature") }
        return BERElement(bytes, extent)
    }

    /// The elements inside a constructed element.
    func children() throws(CMSFormatError) -> [BERElement] {
        guard isConstructed else { throw CMSFormatError("expected a constructed element, found tag \(tag)") }
        var index = contentsBounds.lowerBound
        var children: [BERElement] = []
        // Room for the children CMS has (at most 7, in a SignerInfo) from the start: growing one
        // element at a time cost 21 of a token AUTHORIZE's mallocs (363 per request, now 342).
        children.reserveCapacity(8)
        while index < contentsBounds.upperBound {
            children.append(BERElement(encoded, try BERElement.scan(encoded, &index, end: contentsBounds.upperBound, depth: 1)))
        }
        return children
    }

    /// Where one element lies in the bytes read.
    private struct Extent {
        var tag: UInt8
        var start: Int
        var contents: Range<Int>
        var end: Int

        /// As ``BERElement/isIndefinite``: only an indefinite length leaves octets after the contents.
        var isIndefinite: Bool { end - contents.upperBound == 2 }
    }

    /// Reads the element starting at `index` and ending by `end` within `bytes`, and moves
    /// `index` past it.
    private static func scan(
        _ bytes: ArraySlice<UInt8>,
        _ index: inout Int,
        end: Int,
        depth: Int
    ) throws(CMSFormatError)
        -> Extent
    {
        guard depth < maximumDepth else { throw CMSFormatError("the signature nests too deeply") }
        let start = index
        guard end - index >= 2 else { throw CMSFormatError("the signature ends inside an element") }
        let tag = bytes[index]
        let first = bytes[index + 1]
        index += 2
        guard tag & 0x1F != 0x1F else { throw CMSFormatError("multi-byte tags do not occur in CMS") }

        if first == 0x80 {
            // Indefinite length: constructed only; children until the end-of-contents octets 00 00.
            guard tag & 0x20 != 0 else { throw CMSFormatError("an indefinite-length element is not constructed") }
            let contentsStart = index
            while true {
                guard end - index >= 2 else {
                    throw CMSFormatError("an indefinite-length element is not terminated")
                }
                if bytes[index] == 0, bytes[index + 1] == 0 {
                    let contentsEnd = index
                    index += 2
                    return Extent(tag: tag, start: start, contents: contentsStart..<contentsEnd, end: index)
                }
                _ = try scan(bytes, &index, end: end, depth: depth + 1)
            }
        }

        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4, end - index >= count else { throw CMSFormatError("an element length is malformed") }
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
        guard end - index >= length else { throw CMSFormatError("an element is longer than the signature") }
        let contents = index..<(index + length)
        index += length
        return Extent(tag: tag, start: start, contents: contents, end: index)
    }
}
