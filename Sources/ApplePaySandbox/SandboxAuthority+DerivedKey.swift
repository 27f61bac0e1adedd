import Crypto
import Foundation

extension SandboxAuthority {
    /// A 256-bit key for `purpose` (e.g. signing sandbox Apple Pay merchant sessions), derived
    /// with HKDF-SHA256 from the root's private key: every replica that shares the authority
    /// derives the same key, nobody without the root key can, and no purpose learns another's.
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: rootKey.rawRepresentation),
            salt: Data("Apple Pay Gateway Sandbox derived key v1".utf8),
            info: Data(purpose.utf8),
            outputByteCount: 32
        )
    }
}
