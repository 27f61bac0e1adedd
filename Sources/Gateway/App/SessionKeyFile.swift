import ApplePayToken
import Foundation

#if canImport(Glibc)
import GatewayConfigurationFile
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A 256-bit key kept in a file when none is configured: generated once and kept, so what it
/// protects survives a restart. Production's request fingerprint key for a SQLite store lives
/// beside the database. `serve` in sandbox mode keeps the keys it generates in the store
/// (``GatewayKeys``) and only reads the files an earlier release left in the data directory
/// (the session key beside the sandbox authority, the fingerprint key beside the store or there).
enum SessionKeyFile {
    static func location(besideAuthority authorityDirectory: String) -> URL {
        URL(fileURLWithPath: authorityDirectory).deletingLastPathComponent().appendingPathComponent("session-encryption.key")
    }

    static func loadOrCreate(at url: URL, configurationKey: String = "sessions.encryptionKey") throws(ConfigurationError) -> [UInt8] {
        if let text = try? String(contentsOf: url, encoding: .utf8) {
            guard let key = SessionSettings.key(hex: text) else {
                throw ConfigurationError(key: configurationKey, problem: "file \(url.path) does not hold 64 hex characters")
            }
            return key
        }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw ConfigurationError(key: configurationKey, problem: "cannot be generated in \(url.deletingLastPathComponent().path)")
        }
        // Written whole to a private temporary file (owner-only from its first byte), then linked
        // into place: a replica that loses the race finds the winner's complete key and uses it.
        let temporary = url.path + ".\(Hex.encode((0..<8).map { _ in UInt8.random(in: .min ... .max) }))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw ConfigurationError(key: configurationKey, problem: "cannot be written to \(url.path)")
        }
        defer { unlink(temporary) }
        let text = Array((Hex.encode(key) + "\n").utf8)
        let written = write(descriptor, text, text.count) == text.count && fsync(descriptor) == 0
        close(descriptor)
        guard written else {
            throw ConfigurationError(key: configurationKey, problem: "cannot be written to \(url.path)")
        }
        guard link(temporary, url.path) == 0 else {
            if errno == EEXIST { return try loadOrCreate(at: url, configurationKey: configurationKey) }
            throw ConfigurationError(key: configurationKey, problem: "cannot be written to \(url.path)")
        }
        return key
    }
}
