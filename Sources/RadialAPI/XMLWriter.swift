/// An element to write: the Radial-style API's replies are built as these and serialized by
/// ``XMLWriter``, which escapes every text and attribute value.
struct XMLOutput: Sendable, Equatable {
    enum Content: Sendable, Equatable {
        case text(String)
        case children([XMLOutput])
    }

    var name: String
    var attributes: [(name: String, value: String)]
    var content: Content

    init(_ name: String, attributes: [(name: String, value: String)] = [], text: String) {
        self.name = name
        self.attributes = attributes
        self.content = .text(text)
    }

    init(_ name: String, attributes: [(name: String, value: String)] = [], children: [XMLOutput]) {
        self.name = name
        self.attributes = attributes
        self.content = .children(children)
    }

    static func == (lhs: XMLOutput, rhs: XMLOutput) -> Bool {
        lhs.name == rhs.name && lhs.content == rhs.content
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }
}

enum XMLWriter {
    /// The document: an XML declaration, then `root`, indented.
    static func document(_ root: XMLOutput) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        write(root, indent: 0, into: &text)
        return Array(text.utf8)
    }

    private static func write(_ element: XMLOutput, indent: Int, into text: inout String) {
        let padding = String(repeating: "  ", count: indent)
        text += padding + "<" + element.name
        for attribute in element.attributes {
            text += " \(attribute.name)=\"\(escape(attribute.value, quotes: true))\""
        }
        switch element.content {
        case .text(let value) where value.isEmpty:
            text += "/>\n"
        case .text(let value):
            text += ">" + escape(value, quotes: false) + "</\(element.name)>\n"
        case .children(let children):
            text += ">\n"
            for child in children { write(child, indent: indent + 1, into: &text) }
            text += padding + "</\(element.name)>\n"
        }
    }

    /// Markup characters as the predefined entities; other characters a document may not carry as numeric references.
    static func escape(_ value: String, quotes: Bool) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\r": result += "&#13;"
            case "\t" where quotes: result += "&#9;"
            case "\n" where quotes: result += "&#10;"
            default:
                // A character XML cannot carry at all is replaced rather than emitted.
                result.unicodeScalars.append(XMLReader.isXMLCharacter(scalar.value) ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}
