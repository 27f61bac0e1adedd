import ApplePayToken
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files whose permissions are right from the moment they exist: a private key must never
/// be readable by others, not even between a write and a later chmod.
package enum SecureFile {
    package static func createDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw SandboxError("cannot create the directory \(directory.path)")
        }
    }

    /// Writes `bytes` to a new temporary file created with `mode`, then renames it over `url`.
    package static func store(_ bytes: [UInt8], at url: URL, mode: mode_t) throws {
        let temporary = url.deletingLastPathComponent().appending(path: ".\(url.lastPathComponent).\(Hex.encode(Bytes.random(count: 8)))")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw SandboxError("cannot create \(temporary.path)") }
        var written = 0
        let failed = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                written += result
            }
            return false
        }
        // The umask may have cleared bits of `mode` at creation; set exactly what was asked.
        let chmodFailed = fchmod(descriptor, mode) != 0
        let closeFailed = close(descriptor) != 0
        guard !failed, !chmodFailed, !closeFailed, rename(temporary.path, url.path) == 0 else {
            unlink(temporary.path)
            throw SandboxError("cannot write \(url.path)")
        }
    }
}
