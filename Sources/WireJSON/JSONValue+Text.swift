extension JSONValue {
    /// Parses strict JSON (RFC 8259), fast: the type is known from the first byte.
    package init<Bytes: Collection<UInt8>>(parsing bytes: Bytes) throws(JSONSyntaxError) {
        do {
            self = try JSONParser.parse(bytes)
        } catch {
            throw JSONSyntaxError(duplicateKey: error.duplicateKey)
        }
    }

    /// Compact JSON with object keys sorted, so the same value always gives the same bytes.
    package func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(into: &output)
        return output
    }

    /// Appends ``serialized()``'s bytes: for writers that build larger documents around values.
    package func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value): output.append(contentsOf: (value.isFinite ? "\(value)" : "null").utf8)
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            // Sorted pairs, not sorted keys looked up again: one hash lookup fewer per member. They
            // are sorted in temporary (stack) memory: a sorted copy per object was a heap array.
            withUnsafeTemporaryAllocation(of: (key: String, value: JSONValue).self, capacity: members.count) { buffer in
                var sorted = buffer  // sorting writes through the pointer, but is declared mutating
                _ = sorted.initialize(from: members)
                defer { _ = sorted.deinitialize() }
                sorted.sort { $0.key < $1.key }
                for (index, member) in sorted.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    Self.writeString(member.key, into: &output)
                    output.append(UInt8(ascii: ":"))
                    member.value.write(into: &output)
                }
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `value` as a JSON string literal, quotes included: the one escaper every JSON writer of
    /// this package uses (responses, sandbox tokens, log lines).
    package static func stringLiteral(_ value: String) -> String {
        var output: [UInt8] = []
        writeString(value, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal, quotes included.
    package static func writeString(_ value: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var value = value
        // Copy runs of plain bytes whole, from the string's own storage: a token is 4 KB of text
        // with a few dozen quotes in it.
        value.withUTF8 { bytes in
            var runStart = 0
            while true {
                let index = PlainTextScan.end(of: bytes, from: runStart)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                guard index < bytes.count else { break }
                let byte = bytes[index]
                runStart = index + 1
                switch byte {
                case 0x22: output.append(contentsOf: [0x5C, 0x22])
                case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// The text is not JSON.
package struct JSONSyntaxError: Error, Sendable {
    /// Set when the only fault is an object that repeats this key.
    package var duplicateKey: String?
}
