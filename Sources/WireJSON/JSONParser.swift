import Foundation

/// A small strict JSON (RFC 8259) reader producing ``JSONValue``.
///
/// The decrypted payment data is read on every token; `JSONDecoder` can only discover a value's
/// type by trying each one and building an error for every miss, which cost more than the AES
/// step. This reader knows the type from the first byte.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    /// The members read so far of every object still open, innermost last. Each object's
    /// dictionary is made once, at its size, when the object closes: filled member by member it
    /// was reallocated and rehashed at every doubling, and each key was hashed twice (the
    /// duplicate check, then the insert).
    private var openMembers: [(key: String, value: JSONValue)] = []
    private static let maximumDepth = 64

    struct Failure: Error {
        /// Set when the text is well-formed but an object repeats a key: RFC 8259 leaves the
        /// meaning open, and two readers that each pick a different copy disagree on the value.
        var duplicateKey: String?
    }

    static func parse<Bytes: Collection<UInt8>>(_ input: Bytes) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: Array(input))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw Failure() }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < Self.maximumDepth else { throw Failure() }
        skipWhitespace()
        guard index < bytes.count else { throw Failure() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return try number()
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object([:]) }
        // Room for a request's members at once (growing from empty took five allocations).
        if openMembers.capacity == 0 { openMembers.reserveCapacity(16) }
        let first = openMembers.count
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Failure() }
            let key = try string()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw Failure() }
            openMembers.append((key, try value(depth: depth + 1)))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { throw Failure() }
        var members = [String: JSONValue](minimumCapacity: openMembers.count - first)
        for (key, value) in openMembers[first...] {
            guard members.updateValue(value, forKey: key) == nil else { throw Failure(duplicateKey: key) }
        }
        openMembers.removeSubrange(first...)
        return .object(members)
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "]")) else { throw Failure() }
        return .array(elements)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        index = bytes.withUnsafeBufferPointer { PlainTextScan.end(of: $0, from: start) }
        guard index < bytes.count, bytes[index] >= 0x20 else { throw Failure() }
        var scalars = bytes[start..<index]
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return try Self.utf8(scalars)
        }
        // Escapes: runs of plain bytes between them are copied whole (a token embedded as a
        // string is 4 KB with a quote escaped every few dozen bytes), into room for them all:
        // the escaped text is the most the decoded one can take, and growing into 4 KB moved it
        // about eight times.
        // The closing quote, found a word at a time between escapes as the runs are read below
        // (byte by byte, a token's string took about 1.5 us more per AUTHORIZE).
        let end = bytes.withUnsafeBufferPointer { buffer in
            var end = index
            while end < buffer.count, buffer[end] != UInt8(ascii: "\"") {
                end = buffer[end] == UInt8(ascii: "\\") ? end + 2 : PlainTextScan.end(of: buffer, from: end + 1)
            }
            return end
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(min(end, bytes.count) - start)
        decoded.append(contentsOf: scalars)
        while true {
            guard index < bytes.count else { throw Failure() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                scalars = decoded[...]
                return try Self.utf8(scalars)
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case ..<0x20:
                throw Failure()
            default:
                let runStart = index - 1
                index = bytes.withUnsafeBufferPointer { PlainTextScan.end(of: $0, from: runStart + 1) }
                decoded.append(contentsOf: bytes[runStart..<index])
            }
        }
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw Failure() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else { throw Failure() }
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw Failure() }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw Failure() }
            decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw Failure()
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4 else { throw Failure() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure()
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        guard digits() > 0 else { throw Failure() }
        // No leading zeros: "0" alone or a non-zero first digit.
        let integerStart = bytes[start] == UInt8(ascii: "-") ? start + 1 : start
        guard bytes[integerStart] != UInt8(ascii: "0") || index - integerStart == 1 else { throw Failure() }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard digits() > 0 else { throw Failure() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw Failure() }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw Failure() }
        return .double(double)
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected)
        else { throw Failure() }
        index += expected.count
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private static func utf8(_ bytes: ArraySlice<UInt8>) throws(Failure) -> String {
        guard let text = bytes.withUnsafeBufferPointer({ String(wellFormedUTF8: $0) }) else { throw Failure() }
        return text
    }
}
