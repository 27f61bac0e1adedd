import Crypto
import Foundation
import GatewayCore

/// Seals a session's content with AES-256-GCM. The session id is the associated data, so a
/// sealed blob copied onto another session's row does not open.
package struct SessionCipher: Sendable {
    private let key: SymmetricKey

    package init(key: [UInt8]) {
        precondition(key.count == 32, "an AES-256 key is 32 bytes")
        self.key = SymmetricKey(data: key)
    }

    func seal(_ plaintext: [UInt8], sessionId: String) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Array(sessionId.utf8))
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return Array(combined)
    }

    func open(_ sealed: [UInt8], sessionId: String) throws -> [UInt8] {
        Array(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key, authenticating: Array(sessionId.utf8)))
    }
}
