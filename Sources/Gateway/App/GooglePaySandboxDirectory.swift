import ApplePaySandbox
import Foundation
import GooglePaySandbox

/// The sandbox Google root kept on disk, so tokens minted yesterday verify today: its signing key
/// (`root-key.pem`, mode 0600) and the root as Google publishes its own (`keys.json`, for
/// `gateway decrypt --google-root-keys`). Made on first use, by `serve` in sandbox mode and by
/// `gateway mint-token --wallet google-pay`.
package enum GooglePaySandboxDirectory {
    static let rootKeyFile = "root-key.pem"
    static let keysFile = "keys.json"

    /// Why the directory could not be used, naming the file.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    package static func root(at directory: URL) throws(Problem) -> GooglePaySandboxRoot {
        let keyFile = directory.appending(path: rootKeyFile)
        let root: GooglePaySandboxRoot
        do {
            if let pem = FileManager.default.contents(atPath: keyFile.path) {
                guard let stored = GooglePaySandboxRoot(signingKeyPEM: String(decoding: pem, as: UTF8.self)) else {
                    throw Problem(description: "\(keyFile.path): not a P-256 private key in PEM")
                }
                root = stored
            } else {
                try SecureFile.createDirectory(directory)
                root = GooglePaySandboxRoot()
                try SecureFile.store(Array((root.signingKeyPEM + "\n").utf8), at: keyFile, mode: 0o600)
            }
            let keys = Array((root.keysJSON + "\n").utf8)
            let keysPath = directory.appending(path: keysFile)
            if FileManager.default.contents(atPath: keysPath.path).map({ Array($0) }) != keys {
                try SecureFile.store(keys, at: keysPath, mode: 0o644)
            }
        } catch let error as Problem {
            throw error
        } catch {
            throw Problem(description: "\(directory.path): \(error)")
        }
        return root
    }
}
