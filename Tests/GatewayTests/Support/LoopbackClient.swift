import BlockingWork
import Foundation
import HTTPTypes

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 exchange over its own TCP connection from a chosen loopback address
/// (127.0.0.2, 127.0.0.3, ...: Linux answers the whole 127/8 on `lo`), so a test can be many
/// clients at once, each with an address of its own, as the console's per-address rules see them.
/// Blocking sockets on a thread of their own: the cooperative pool is left to the server.
struct LoopbackClient: Sendable {
    var port: Int
    /// The address the connection comes from.
    var source: String

    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        var setCookies: [String] { headers.filter { $0.name.lowercased() == "set-cookie" }.map(\.value) }

        /// The console page's first hidden input of that name.
        func hidden(_ name: String) -> String? {
            guard let range = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(body[range.upperBound...].prefix { $0 != "\"" })
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends the request and reads the answer to the end (the request says `Connection: close`).
    func send(
        _ method: String,
        _ target: String,
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) async throws -> Answer {
        let port = port
        let source = source
        return try await onAThreadOfItsOwn {
            var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
            let request = Array((head + "\r\n").utf8) + body
            let raw = try Self.exchange(request, port: port, source: source)
            return try Self.parse(raw)
        }
    }

    /// The login form's cookie and token, then the login posted with them.
    func login(merchant: String, name: String, password: String) async throws -> Answer {
        let form = try await send("GET", "/ma/login")
        guard let token = form.hidden("csrf"),
            let cookie = form.setCookies.first(where: { $0.hasPrefix("ma_login=") })?.split(separator: ";").first
        else { throw Failure(description: "the login form had no token: \(form.status)") }
        return try await postForm(
            "/ma/login",
            [("csrf", token), ("merchant", merchant), ("name", name), ("password", password)],
            cookie: String(cookie)
        )
    }

    func postForm(_ target: String, _ fields: [(String, String)], cookie: String) async throws -> Answer {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)" }.joined(separator: "&")
        return try await send(
            "POST",
            target,
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", cookie)],
            body: Array(body.utf8)
        )
    }

    private static func exchange(_ request: [UInt8], port: Int, source: String) throws -> [UInt8] {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { Glibc.close(socket) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        try connect(socket, bindingTo: address(source, port: 0), call: Glibc.bind, "bind \(source)")
        try connect(socket, bindingTo: address("127.0.0.1", port: port), call: Glibc.connect, "connect")
        let sent = request.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw Failure(description: "send: errno \(errno)") }
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0 { throw Failure(description: "recv: errno \(errno)") }
            if count == 0 { return received }
            received += buffer[0..<count]
        }
    }

    private static func address(_ text: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(text)
        return address
    }

    private static func connect(
        _ socket: Int32,
        bindingTo address: sockaddr_in,
        call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32,
        _ what: String
    ) throws {
        var address = address
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else { throw Failure(description: "\(what): errno \(errno)") }
    }

    private static func parse(_ raw: [UInt8]) throws -> Answer {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else {
            throw Failure(description: "no complete head in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "status line \(lines[0])") }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = Array(raw[(end + separator.count)...])
        if headers.contains(where: { $0.name.lowercased() == "transfer-encoding" && $0.value.lowercased().contains("chunked") }) {
            body = unchunked(body)
        }
        return Answer(status: status, headers: headers, body: String(decoding: body, as: UTF8.self))
    }

    private static func unchunked(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        var index = bytes.startIndex
        while let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")) {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd + 2
            guard start + size <= bytes.endIndex else { break }
            output += bytes[start..<(start + size)]
            index = start + size + 2
            guard index < bytes.endIndex else { break }
        }
        return output
    }
}
