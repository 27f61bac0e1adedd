extension XMLElement {
    /// The element as the request fingerprint sees it: namespace, name, attributes in order, text
    /// and children, each length-prefixed so no two documents share a form, with the elements
    /// named in `omitted` (security codes) left out wherever they are.
    func canonicalBytes(omitting omitted: Set<String>) -> [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes, omitting: omitted)
        return bytes
    }

    private func append(to bytes: inout [UInt8], omitting omitted: Set<String>) {
        Self.field(namespace ?? "", &bytes)
        Self.field(name, &bytes)
        Self.count(attributes.count, &bytes)
        for attribute in attributes {
            Self.field(attribute.namespace ?? "", &bytes)
            Self.field(attribute.name, &bytes)
            Self.field(attribute.value, &bytes)
        }
        Self.field(text, &bytes)
        let kept = children.filter { !omitted.contains($0.name) }
        Self.count(kept.count, &bytes)
        for child in kept { child.append(to: &bytes, omitting: omitted) }
    }

    private static func field(_ text: String, _ bytes: inout [UInt8]) {
        count(text.utf8.count, &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    private static func count(_ value: Int, _ bytes: inout [UInt8]) {
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian) { bytes.append(contentsOf: $0) }
    }
}
