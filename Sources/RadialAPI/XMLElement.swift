/// One element of a document ``XMLReader`` accepted: its namespace and local name, its attributes
/// (namespace declarations excluded), its child elements and its character data.
package struct XMLElement: Sendable, Equatable {
    /// The namespace URI the element's prefix (or the default namespace) resolved to.
    package var namespace: String?
    /// The local name, without prefix.
    package var name: String
    package var attributes: [XMLAttribute] = []
    package var children: [XMLElement] = []
    /// The element's own character data (text and CDATA), children's text excluded.
    package var text: String = ""

    /// The value of the unprefixed attribute `name`.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.namespace == nil && $0.name == name }?.value
    }

    /// The first child element named `name`.
    func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// The text of the child `name`, when there is one.
    func childText(_ name: String) -> String? {
        child(name)?.text
    }
}

package struct XMLAttribute: Sendable, Equatable {
    package var namespace: String?
    package var name: String
    package var value: String
}
