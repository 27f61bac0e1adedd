import HTTPTypes
import NIOHPACK

/// HTTP/2 header blocks as the HTTP types the routes read, and back.
enum HTTP2Fields {
    /// A request head from its header block. NIOHTTP2 has already checked the block (pseudo-header
    /// fields first and once each, lower-case names, no connection-specific fields); what is left
    /// to refuse is a method or name the HTTP types cannot hold. Nil: a malformed request.
    static func request(_ block: HPACKHeaders) -> HTTPRequest? {
        var method: HTTPRequest.Method?
        var scheme: String?
        var authority: String?
        var path: String?
        var fields = HTTPFields()
        fields.reserveCapacity(block.count)
        for (name, value, indexing) in block {
            if name.utf8.first == UInt8(ascii: ":") {
                switch name {
                case ":method": method = HTTPRequest.Method(value)
                case ":scheme": scheme = value
                case ":authority": authority = value
                case ":path": path = value
                default: return nil
                }
                continue
            }
            guard let fieldName = HTTPField.Name(name) else { return nil }
            var field = HTTPField(name: fieldName, value: value)
            if indexing == .neverIndexed { field.indexingStrategy = .disallow }
            fields.append(field)
        }
        guard let method, path != nil else { return nil }
        return HTTPRequest(method: method, scheme: scheme, authority: authority, path: path, headerFields: fields)
    }

    /// A response head as a header block, without the fields HTTP/2 forbids (RFC 9113 §8.2.2).
    static func responseBlock(_ head: HTTPResponse, date: String) -> HPACKHeaders {
        var block = HPACKHeaders()
        block.reserveCapacity(head.headerFields.count + 2)
        block.add(name: ":status", value: statusText(head.status.code))
        for field in head.headerFields where !isConnectionSpecific(field.name) {
            block.add(name: field.name.canonicalName, value: field.value, indexing: indexing(field.indexingStrategy))
        }
        if head.headerFields[.date] == nil { block.add(name: "date", value: date) }
        return block
    }

    private static func isConnectionSpecific(_ name: HTTPField.Name) -> Bool {
        switch name {
        case .connection, .transferEncoding, .upgrade, keepAlive, proxyConnection: true
        default: false
        }
    }

    private static let keepAlive = HTTPField.Name("keep-alive")!
    private static let proxyConnection = HTTPField.Name("proxy-connection")!

    private static func indexing(_ strategy: HTTPField.DynamicTableIndexingStrategy) -> HPACKIndexing {
        if strategy == .disallow { return .neverIndexed }
        return strategy == .avoid ? .nonIndexable : .indexable
    }

    /// The statuses the gateway answers with most, without formatting an integer each time.
    private static func statusText(_ code: Int) -> String {
        switch code {
        case 200: "200"
        case 201: "201"
        case 400: "400"
        case 401: "401"
        case 404: "404"
        default: String(code)
        }
    }
}
