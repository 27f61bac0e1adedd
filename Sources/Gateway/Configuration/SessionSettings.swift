import ApplePayToken
import Foundation
import GatewayConfigurationFile

/// `sessions.*`: how long a session lives and the key that seals its card data at rest.
struct SessionSettings: Sendable {
    /// The gateway's session lifetime: an hour from creation.
    var lifetime: TimeInterval = 3600
    /// AES-256 key; in sandbox mode, generated into the data directory when not configured.
    var encryptionKey: [UInt8]?

    init() {}

    init(lifetimeSeconds: Int?, encryptionKey: String?) throws(ConfigurationError) {
        if let lifetimeSeconds {
            guard (60...86_400).contains(lifetimeSeconds) else {
                throw ConfigurationError(key: "sessions.lifetimeSeconds", problem: "must be 60-86400")
            }
            lifetime = TimeInterval(lifetimeSeconds)
        }
        if let encryptionKey {
            guard let bytes = Self.key(hex: encryptionKey) else {
                throw ConfigurationError(key: "sessions.encryptionKey", problem: "must be 64 hexadecimal characters")
            }
            self.encryptionKey = bytes
        }
    }

    static func key(hex: String) -> [UInt8]? {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64 else { return nil }
        return Hex.decode(text)
    }
}
