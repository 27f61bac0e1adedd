/// The part of an XSD this API needs: an element's children as an ordered sequence (each
/// required or optional, at most once), or its text with a length and a format; its attributes.
/// ``validate(_:against:path:)`` checks a parsed element against a rule and throws a fault naming
/// the first element (by its path) that breaks it: unknown, out of order, repeated, missing, in
/// another namespace, or with a value outside its type.
struct RadialElementRule: Sendable {
    enum Content: Sendable {
        case text(RadialTextRule)
        case sequence([RadialElementRule])
    }

    var name: String
    var required: Bool
    var content: Content
    var attributes: [RadialAttributeRule]

    static func text(
        _ name: String,
        _ rule: RadialTextRule,
        optional: Bool = false,
        attributes: [RadialAttributeRule] = []
    ) -> RadialElementRule {
        RadialElementRule(name: name, required: !optional, content: .text(rule), attributes: attributes)
    }

    static func sequence(
        _ name: String,
        optional: Bool = false,
        attributes: [RadialAttributeRule] = [],
        _ children: [RadialElementRule]
    ) -> RadialElementRule {
        RadialElementRule(name: name, required: !optional, content: .sequence(children), attributes: attributes)
    }
}

struct RadialAttributeRule: Sendable {
    var name: String
    var required: Bool
    var rule: RadialTextRule
}

/// A simple type: length bounds and a format check, with the words a fault uses when it fails.
struct RadialTextRule: Sendable {
    var minLength: Int
    var maxLength: Int
    var format: (@Sendable (String) -> Bool)?
    var expectation: String

    init(_ minLength: Int, _ maxLength: Int, expectation: String? = nil, format: (@Sendable (String) -> Bool)? = nil) {
        self.minLength = minLength
        self.maxLength = maxLength
        self.format = format
        self.expectation = expectation ?? "\(minLength) to \(maxLength) characters"
    }

    func accepts(_ value: String) -> Bool {
        (minLength...maxLength).contains(value.count) && (format?(value) ?? true)
    }
}

enum RadialSchema {
    static func validate(_ element: XMLElement, against rule: RadialElementRule, path: String) throws(RadialFault) {
        guard element.namespace == RadialNamespace.checkout else {
            throw RadialFault.invalid(path, "must be in namespace \(RadialNamespace.checkout)")
        }
        for attribute in element.attributes {
            guard attribute.namespace == nil, rule.attributes.contains(where: { $0.name == attribute.name }) else {
                throw RadialFault.invalid("\(path)/@\(attribute.name)", "is not an attribute of \(rule.name)")
            }
        }
        for attributeRule in rule.attributes {
            let attributePath = "\(path)/@\(attributeRule.name)"
            guard let value = element.attribute(attributeRule.name) else {
                if attributeRule.required { throw RadialFault.invalid(attributePath, "is required") }
                continue
            }
            guard attributeRule.rule.accepts(value) else {
                throw RadialFault.invalid(attributePath, "must be \(attributeRule.rule.expectation)")
            }
        }
        switch rule.content {
        case .text(let textRule):
            guard element.children.isEmpty else {
                throw RadialFault.invalid("\(path)/\(element.children[0].name)", "is not allowed: \(rule.name) holds text only")
            }
            guard textRule.accepts(element.text) else {
                throw RadialFault.invalid(path, "must be \(textRule.expectation)")
            }
        case .sequence(let children):
            guard element.text.allSatisfy(\.isWhitespace) else {
                throw RadialFault.invalid(path, "holds elements only, not text")
            }
            try validateSequence(element.children, against: children, path: path)
        }
    }

    private static func validateSequence(
        _ elements: [XMLElement],
        against rules: [RadialElementRule],
        path: String
    ) throws(RadialFault) {
        var next = 0
        var seen = Array(repeating: false, count: rules.count)
        for element in elements {
            let elementPath = "\(path)/\(element.name)"
            guard element.namespace == RadialNamespace.checkout else {
                throw RadialFault.invalid(elementPath, "must be in namespace \(RadialNamespace.checkout)")
            }
            guard let index = rules.firstIndex(where: { $0.name == element.name }) else {
                throw RadialFault.invalid(elementPath, "is not an element of \(path.split(separator: "/").last ?? "")")
            }
            if seen[index] { throw RadialFault.invalid(elementPath, "may appear only once") }
            guard index >= next else {
                throw RadialFault.invalid(elementPath, "is out of order: it must come before \(rules[next - 1].name)")
            }
            if let missing = rules[next..<index].first(where: \.required) {
                throw RadialFault.invalid("\(path)/\(missing.name)", "is required before \(element.name)")
            }
            seen[index] = true
            next = index + 1
            try validate(element, against: rules[index], path: elementPath)
        }
        if let missing = rules[next...].first(where: \.required) {
            throw RadialFault.invalid("\(path)/\(missing.name)", "is required")
        }
    }
}
