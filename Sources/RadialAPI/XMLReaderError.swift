/// Why ``XMLReader`` refused a document. Each case is one rule; `description` words it for the
/// client (it never quotes the document's text beyond a name).
package enum XMLReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(limit: Int)
    case notUTF8
    case unsupportedEncoding(String)
    /// A document type declaration: internal subsets and external entities are the XXE and
    /// entity-expansion attacks, so none is read at all.
    case doctypeForbidden
    case processingInstructionForbidden
    case undefinedEntity(String)
    case invalidCharacterReference
    case invalidCharacter(offset: Int)
    case tooDeep(limit: Int)
    case tooManyElements(limit: Int)
    case tooManyAttributes(element: String, limit: Int)
    case duplicateAttribute(element: String, attribute: String)
    case unboundPrefix(String)
    case mismatchedEndTag(expected: String, found: String)
    case textTooLong(limit: Int)
    case malformed(expected: String, offset: Int)

    package var description: String {
        switch self {
        case .tooLarge(let limit): "The XML document is larger than \(limit) bytes"
        case .notUTF8: "The XML document is not valid UTF-8"
        case .unsupportedEncoding(let encoding): "The XML declaration names encoding '\(encoding.prefix(20))'; only UTF-8 is accepted"
        case .doctypeForbidden: "DOCTYPE and DTD declarations are not accepted"
        case .processingInstructionForbidden: "Processing instructions other than the XML declaration are not accepted"
        case .undefinedEntity(let name): "Entity '&\(name.prefix(20));' is not defined; only the five predefined entities are accepted"
        case .invalidCharacterReference: "A character reference names no valid XML character"
        case .invalidCharacter(let offset): "A character not allowed in XML at offset \(offset)"
        case .tooDeep(let limit): "Elements are nested deeper than \(limit) levels"
        case .tooManyElements(let limit): "The document has more than \(limit) elements"
        case .tooManyAttributes(let element, let limit): "Element \(element) has more than \(limit) attributes"
        case .duplicateAttribute(let element, let attribute): "Element \(element) repeats attribute \(attribute)"
        case .unboundPrefix(let prefix): "Namespace prefix '\(prefix.prefix(40))' is not declared"
        case .mismatchedEndTag(let expected, let found): "End tag </\(found.prefix(64))> does not close <\(expected)>"
        case .textTooLong(let limit): "A text or attribute value is longer than \(limit) characters"
        case .malformed(let expected, let offset): "Malformed XML at offset \(offset): expected \(expected)"
        }
    }
}
