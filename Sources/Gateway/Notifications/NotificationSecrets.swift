import Crypto
import Foundation
import GatewayConfigurationFile
import GatewayCore

/// Each merchant's notification secret: the configured one, or in sandbox mode one derived from
/// a key generated once into the data directory (`notification-secret.key`, beside the session
/// key), so it stays the same across restarts and replicas sharing that directory.
enum NotificationSecrets {
    static func merchantNotifications(_ configuration: GatewayConfiguration) throws(ConfigurationError) -> [String: MerchantNotifications] {
        var sandboxKey: [UInt8]?
        var result: [String: MerchantNotifications] = [:]
        for merchant in configuration.merchants {
            guard let settings = merchant.notifications else { continue }
            if let secret = settings.secret {
                result[merchant.id] = MerchantNotifications(url: settings.url, secret: secret)
                continue
            }
            if sandboxKey == nil {
                let file = SessionKeyFile.location(besideAuthority: configuration.sandboxAuthorityDirectory)
                    .deletingLastPathComponent().appendingPathComponent("notification-secret.key")
                sandboxKey = try SessionKeyFile.loadOrCreate(at: file, configurationKey: "merchant.\(merchant.id).notifications.secret")
            }
            let code = HMAC<SHA256>.authenticationCode(for: Data(merchant.id.utf8), using: SymmetricKey(data: sandboxKey ?? []))
            let secret = code.prefix(16).map { String(format: "%02x", $0) }.joined()
            result[merchant.id] = MerchantNotifications(url: settings.url, secret: secret)
        }
        return result
    }
}
