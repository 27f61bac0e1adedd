import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A TCP listener on 127.0.0.1 that counts the connections it accepts and keeps the first bytes
/// each sends (a request head, a TLS ClientHello), then answers `response` (if any) and closes:
/// what a notification reached, seen from the receiving socket.
final class CountingListener: Sendable {
    let port: Int
    private let descriptor: Int32
    private let received = Mutex<[[UInt8]]>([])

    init(response: String? = nil) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0 && listen(descriptor, 64) == 0
            }
        }
        guard listening else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop(response: response) }.start()
    }

    /// The first bytes of each connection accepted so far.
    var connections: [[UInt8]] { received.withLock { $0 } }

    /// Everything received, as text (TLS bytes included: a ClientHello names its server in clear).
    var text: String { connections.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n") }

    func stop() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Waits (bounded) until `count` connections arrived.
    func waitForConnections(_ count: Int, timeout: Duration = .seconds(10)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while connections.count < count {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    private func acceptLoop(response: String?) {
        while case let connection = accept(descriptor, nil, nil), connection >= 0 {
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(connection, &buffer, buffer.count)
            received.withLock { $0.append(Array(buffer.prefix(max(0, count)))) }
            if let response { _ = response.utf8CString.withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count - 1) } }
            close(connection)
        }
        close(descriptor)
    }
}
