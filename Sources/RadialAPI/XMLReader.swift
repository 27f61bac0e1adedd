/// A small, strict XML 1.0 reader for the Radial-style API's request bodies: elements, attributes,
/// namespaces, character data, CDATA and comments; the five predefined entities and numeric
/// character references. It is the API's defence against hostile XML, so it refuses what it does
/// not need: any `<!DOCTYPE` (so no DTD, no entity of its own, no external entity: XXE and entity
/// expansion have nothing to work with), processing instructions other than the XML declaration,
/// encodings other than UTF-8, and documents past the size, depth, element and attribute limits.
/// It builds no DOM larger than the input and recurses no deeper than `maxDepth`.
package struct XMLReader {
    package struct Limits: Sendable {
        package var maxBytes = 65_536
        package var maxDepth = 16
        package var maxElements = 2_000
        package var maxAttributes = 16
        package var maxTextLength = 16_384
    }

    /// The document's root element, or why the document is refused.
    package static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(XMLReaderError) -> XMLElement {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(limit: limits.maxBytes) }
        var input = bytes[...]
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { input = input.dropFirst(3) }
        guard let text = String(validating: input, as: UTF8.self) else { throw .notUTF8 }
        var offset = 0
        for scalar in text.unicodeScalars {
            guard isXMLCharacter(scalar.value) else { throw .invalidCharacter(offset: offset) }
            offset += UTF8.width(scalar)
        }
        var parser = XMLParserState(bytes: Array(input), limits: limits)
        return try parser.document()
    }

    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}

/// The reader's cursor over the (already UTF-8-validated) bytes.
private struct XMLParserState {
    let bytes: [UInt8]
    let limits: XMLReader.Limits
    var position = 0
    var elementCount = 0
    /// Prefix to namespace URI, one dictionary per open element ("" is the default namespace).
    var scopes: [[String: String]] = [["xml": "http://www.w3.org/XML/1998/namespace"]]

    init(bytes: [UInt8], limits: XMLReader.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws(XMLReaderError) -> XMLElement {
        if has("<?xml"), position + 5 < bytes.count, Self.isWhitespace(bytes[position + 5]) {
            try declaration()
        }
        try misc()
        guard peek == UInt8(ascii: "<") else { throw malformed("the root element") }
        let root = try element(depth: 1)
        try misc()
        guard position == bytes.count else { throw malformed("the end of the document after the root element") }
        return root
    }

    // MARK: Prolog

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`: only UTF-8 is accepted.
    private mutating func declaration() throws(XMLReaderError) {
        position += 5
        while true {
            skipWhitespace()
            if has("?>") {
                position += 2
                return
            }
            let name = try name()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            let value = try attributeValue()
            switch name {
            case "version":
                guard value.hasPrefix("1.") else { throw malformed("version 1.x in the XML declaration") }
            case "encoding":
                guard value.lowercased() == "utf-8" else { throw .unsupportedEncoding(value) }
            case "standalone":
                guard value == "yes" || value == "no" else { throw malformed("standalone yes or no") }
            default:
                throw malformed("version, encoding or standalone in the XML declaration")
            }
        }
    }

    /// Whitespace and comments around the root element; a DOCTYPE or processing instruction is refused.
    private mutating func misc() throws(XMLReaderError) {
        while true {
            skipWhitespace()
            if has("<!--") {
                try comment()
            } else if has("<!") {
                throw .doctypeForbidden
            } else if has("<?") {
                throw .processingInstructionForbidden
            } else {
                return
            }
        }
    }

    // MARK: Elements

    private mutating func element(depth: Int) throws(XMLReaderError) -> XMLElement {
        guard depth <= limits.maxDepth else { throw .tooDeep(limit: limits.maxDepth) }
        elementCount += 1
        guard elementCount <= limits.maxElements else { throw .tooManyElements(limit: limits.maxElements) }
        try expect("<")
        let qualifiedName = try name()
        var raw: [(name: String, value: String)] = []
        var selfClosing = false
        while true {
            let spaced = skipWhitespace()
            if has("/>") {
                position += 2
                selfClosing = true
                break
            }
            if peek == UInt8(ascii: ">") {
                position += 1
                break
            }
            guard spaced else { throw malformed("whitespace, '>' or '/>' after <\(qualifiedName)") }
            let attributeName = try name()
            skipWhitespace()
            try expect("=")
            skipWhitespace()
            let value = try attributeValue()
            guard !raw.contains(where: { $0.name == attributeName }) else {
                throw .duplicateAttribute(element: qualifiedName, attribute: attributeName)
            }
            guard raw.count < limits.maxAttributes else {
                throw .tooManyAttributes(element: qualifiedName, limit: limits.maxAttributes)
            }
            raw.append((attributeName, value))
        }
        var scope = scopes[scopes.count - 1]
        for (name, value) in raw {
            if name == "xmlns" {
                scope[""] = value.isEmpty ? nil : value
            } else if name.hasPrefix("xmlns:") {
                scope[String(name.dropFirst(6))] = value
            }
        }
        scopes.append(scope)
        defer { scopes.removeLast() }
        let (namespace, localName) = try resolve(qualifiedName, scope: scope, isElement: true)
        var result = XMLElement(namespace: namespace, name: localName)
        for (name, value) in raw where name != "xmlns" && !name.hasPrefix("xmlns:") {
            let (attributeNamespace, attributeName) = try resolve(name, scope: scope, isElement: false)
            result.attributes.append(XMLAttribute(namespace: attributeNamespace, name: attributeName, value: value))
        }
        if selfClosing { return result }
        var text: [UInt8] = []
        while true {
            guard position < bytes.count else { throw malformed("</\(qualifiedName)>") }
            if has("</") {
                position += 2
                let endName = try name()
                skipWhitespace()
                try expect(">")
                guard endName == qualifiedName else { throw .mismatchedEndTag(expected: qualifiedName, found: endName) }
                break
            } else if has("<!--") {
                try comment()
            } else if has("<![CDATA[") {
                try cdata(into: &text)
            } else if has("<!") {
                throw .doctypeForbidden
            } else if has("<?") {
                throw .processingInstructionForbidden
            } else if peek == UInt8(ascii: "<") {
                result.children.append(try element(depth: depth + 1))
            } else {
                try characterData(into: &text)
            }
            guard text.count <= limits.maxTextLength else { throw .textTooLong(limit: limits.maxTextLength) }
        }
        result.text = String(decoding: text, as: UTF8.self)
        return result
    }

    /// The namespace and local name of `prefix:local` (or `local`). Unprefixed attributes have no namespace.
    private func resolve(
        _ qualifiedName: String,
        scope: [String: String],
        isElement: Bool
    ) throws(XMLReaderError) -> (String?, String) {
        let parts = qualifiedName.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return (isElement ? scope[""] : nil, qualifiedName)
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty:
            guard let namespace = scope[String(parts[0])] else { throw .unboundPrefix(String(parts[0])) }
            return (namespace, String(parts[1]))
        default:
            throw malformed("a name with at most one ':'")
        }
    }

    // MARK: Text

    private mutating func characterData(into text: inout [UInt8]) throws(XMLReaderError) {
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") {
            let byte = bytes[position]
            if byte == UInt8(ascii: "&") {
                text += try reference()
            } else if has("]]>") {
                throw malformed("text without ']]>'")
            } else if byte == 0x0D {
                // Line ends are normalized to LF, as the XML specification requires.
                text.append(0x0A)
                position += 1
                if peek == 0x0A { position += 1 }
            } else {
                text.append(byte)
                position += 1
            }
            guard text.count <= limits.maxTextLength else { throw .textTooLong(limit: limits.maxTextLength) }
        }
    }

    private mutating func cdata(into text: inout [UInt8]) throws(XMLReaderError) {
        position += 9
        guard let end = find("]]>") else { throw malformed("']]>' ending a CDATA section") }
        for byte in bytes[position..<end] where byte != 0x0D { text.append(byte) }
        position = end + 3
    }

    private mutating func comment() throws(XMLReaderError) {
        position += 4
        guard let end = find("--") else { throw malformed("'-->' ending a comment") }
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else {
            throw malformed("'-->': a comment may not contain '--'")
        }
        position = end + 3
    }

    private mutating func attributeValue() throws(XMLReaderError) -> String {
        guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw malformed("a quoted attribute value")
        }
        position += 1
        var value: [UInt8] = []
        while true {
            guard let byte = peek else { throw malformed("the closing quote of an attribute value") }
            if byte == quote {
                position += 1
                break
            }
            switch byte {
            case UInt8(ascii: "<"):
                throw malformed("an attribute value without '<'")
            case UInt8(ascii: "&"):
                value += try reference()
            case 0x09, 0x0A, 0x0D:
                // Attribute-value normalization: whitespace characters become spaces.
                value.append(0x20)
                position += 1
            default:
                value.append(byte)
                position += 1
            }
            guard value.count <= limits.maxTextLength else { throw .textTooLong(limit: limits.maxTextLength) }
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`, `&#NNN;` and `&#xHHH;`; any other name is undefined
    /// (this reader never reads a DTD that could define one).
    private mutating func reference() throws(XMLReaderError) -> [UInt8] {
        let start = position + 1
        var end = start
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > start else {
            throw malformed("';' ending an entity reference")
        }
        let name = String(decoding: bytes[start..<end], as: UTF8.self)
        position = end + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default: break
        }
        guard name.hasPrefix("#") else { throw .undefinedEntity(name) }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.hasPrefix("x") {
            let hex = digits.dropFirst()
            value = hex.isEmpty || hex.count > 8 || !hex.allSatisfy(\.isHexDigit) ? nil : UInt32(hex, radix: 16)
        } else {
            value = digits.isEmpty || !digits.allSatisfy({ ("0"..."9").contains($0) }) ? nil : UInt32(digits)
        }
        guard let value, XMLReader.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
            throw .invalidCharacterReference
        }
        return Array(String(Character(scalar)).utf8)
    }

    // MARK: Lexing

    /// An XML name: a letter, '_' or ':' (or any non-ASCII character), then those, digits, '-' and '.'.
    private mutating func name() throws(XMLReaderError) -> String {
        let start = position
        while let byte = peek, Self.isNameByte(byte, first: position == start) {
            position += 1
            guard position - start <= 128 else { throw malformed("a name of at most 128 bytes") }
        }
        guard position > start else { throw malformed("a name") }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            !first
        default:
            false
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @discardableResult
    private mutating func skipWhitespace() -> Bool {
        let start = position
        while let byte = peek, Self.isWhitespace(byte) { position += 1 }
        return position > start
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private func has(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in
            var index = 0
            while index < count {
                if bytes[position + index] != buffer[index] { return false }
                index += 1
            }
            return true
        }
    }

    private func find(_ literal: StaticString) -> Int? {
        let needle = literal.withUTF8Buffer { Array($0) }
        var index = position
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }

    private mutating func expect(_ character: Character) throws(XMLReaderError) {
        guard let ascii = character.asciiValue, peek == ascii else { throw malformed("'\(character)'") }
        position += 1
    }

    private func malformed(_ expected: String) -> XMLReaderError {
        .malformed(expected: expected, offset: position)
    }
}
