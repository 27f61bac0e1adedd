import Foundation
import Glibc

/// Why `serve` could not start, in one line naming what to change.
public struct StartupFailure: Error, CustomStringConvertible {
    public let description: String
}

/// What `serve` claims before it touches anything else: the address it will listen on (so a
/// busy port is reported before the store is opened) and, for SQLite, the database file itself,
/// locked for the life of the process, so two gateways never write one SQLite file.
enum StartupClaims {
    /// Binds the address once and lets it go: the server binds it again moments later. Catches
    /// the usual mistakes (port in use, privileged port, an address not of this machine) while
    /// nothing has been opened yet.
    static func probeListenAddress(host: String, port: Int) throws(StartupFailure) {
        guard port != 0 else { return }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else {
            throw StartupFailure(
                description: "cannot listen on \(host):\(port): \(host) is not an address or a name this machine resolves "
                    + "(server.host, --host)"
            )
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return }
        defer { close(socket) }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 else { return }
        let reason =
            switch errno {
            case EADDRINUSE: "the port is in use by another process (another gateway?); choose another with --port or server.port"
            case EACCES: "ports below 1024 need privileges; choose another with --port or server.port"
            case EADDRNOTAVAIL: "\(host) is not an address of this machine; choose another with --host or server.host"
            default: String(cString: strerror(errno))
            }
        throw StartupFailure(description: "cannot listen on \(host):\(port): \(reason)")
    }

    /// An exclusive lock on the SQLite file, held until the process ends (the descriptor is
    /// never closed). Its directory is made as the store would make it; if that fails, the
    /// store reports why.
    static func lockSQLiteFile(_ path: String) throws(StartupFailure) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw StartupFailure(
                description: "the SQLite store \(path) is in use by another gateway process: two processes must never share "
                    + "one SQLite file (stop the other, give this one another store.url, or use PostgreSQL for several replicas)"
            )
        }
    }
}
