import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to 127.0.0.1, for clients that misbehave on purpose: slow headers,
/// idle connections, half-sent bodies.
final class RawConnection {
    private let socket: Int32

    /// - Parameter receiveBuffer: a small kernel receive buffer, for a client that reads slowly.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        // Close-on-exec: a gateway the suite starts meanwhile must not inherit it, or closing it
        // here would not close the connection.
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            // Through close(), so that deinit, which runs for an initializer that throws here,
            // does not close the descriptor again: by then another connection may have its number.
            close()
            throw POSIXError(.ECONNREFUSED)
        }
    }

    private var isOpen = true
    /// The errno of a failed read (a reset, or a descriptor closed under us), for test messages.
    private(set) var lastError: Int32 = 0

    deinit { close() }

    func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(socket)
    }

    /// What the descriptor is now, for test messages: still this connection (its peer's port), or
    /// closed or reused under us by another part of the test process.
    var descriptorState: String {
        guard fcntl(socket, F_GETFD) >= 0 else { return "descriptor \(socket) closed (errno \(errno))" }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard status == 0 else { return "descriptor \(socket) has no peer (errno \(errno))" }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let readable = poll(&poller, 1, 0) > 0
        return "descriptor \(socket) peer port \(UInt16(bigEndian: address.sin_port)), readable \(readable)"
    }

    /// Sends everything; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads until the server closes the connection, a complete response with `Content-Length`
    /// has arrived, or `timeout` passes. `closed` says whether the server closed it.
    func receive(timeout: Duration) -> (text: String, closed: Bool) {
        var received = [UInt8]()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0 { lastError = errno }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
            if Self.isComplete(received) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<headEnd.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text[headEnd.upperBound...].utf8.count >= length
    }
}
