import GatewayConfigurationFile
import GatewayCore
import GatewayNotifications

extension NotificationSettings {
    /// `notifications.*` from the configuration, each value checked against its range.
    init(_ values: ConfigValues) throws(ConfigurationError) {
        self.init()
        func read(_ key: String, _ range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
            guard let value = try values.int(key) else { return nil }
            guard range.contains(value) else {
                throw ConfigurationError(key: key, problem: "must be \(range.lowerBound)-\(range.upperBound)")
            }
            return value
        }
        if let seconds = try read("notifications.retryHorizonSeconds", 1...2_592_000) { retry.horizon = Double(seconds) }
        if let seconds = try read("notifications.initialRetrySeconds", 1...3600) { retry.initialDelay = Double(seconds) }
        if let seconds = try read("notifications.maxRetrySeconds", 1...86_400) { retry.maxDelay = Double(seconds) }
        connectTimeoutSeconds = try read("notifications.connectTimeoutSeconds", 1...60) ?? connectTimeoutSeconds
        timeoutSeconds = try read("notifications.timeoutSeconds", 1...120) ?? timeoutSeconds
        pollIntervalMilliseconds = try read("notifications.pollIntervalMilliseconds", 10...60_000) ?? pollIntervalMilliseconds
        concurrency = try read("notifications.concurrency", 1...256) ?? concurrency
        allowedHosts = Set((try values.stringArray("notifications.allowedHosts") ?? []).map { $0.lowercased() })
    }
}

extension GatewayConfiguration {
    /// `merchant.<ID>.notifications.url` and `.secret`. A URL without a secret is refused in
    /// production; in sandbox mode the secret is generated (``NotificationSecretFile``).
    static func merchantNotifications(
        _ merchantId: String,
        _ values: ConfigValues,
        mode: Mode
    ) throws(ConfigurationError) -> MerchantNotificationSettings? {
        let prefix = "merchant.\(merchantId).notifications"
        let url = try values.string("\(prefix).url")
        let secret = try values.string("\(prefix).secret").flatMap { $0.isEmpty ? nil : $0 }
        if let url {
            do throws(NotificationTargetRefusal) {
                _ = try NotificationTarget(parsing: url, production: mode == .production)
            } catch {
                throw ConfigurationError(key: "\(prefix).url", problem: error.problem)
            }
        }
        if let secret, !(16...128).contains(secret.count) || !secret.allSatisfy({ $0.isASCII && !$0.isWhitespace }) {
            throw ConfigurationError(key: "\(prefix).secret", problem: "must be 16-128 printable characters without spaces")
        }
        guard url != nil || secret != nil || mode == .sandbox else { return nil }
        if mode == .production, secret == nil {
            throw ConfigurationError(key: "\(prefix).secret", problem: "is required with \(prefix).url in production")
        }
        return MerchantNotificationSettings(url: url, secret: secret)
    }
}

/// A merchant's notification keys as configured; the secret is generated in sandbox mode when absent.
struct MerchantNotificationSettings: Sendable {
    var url: String?
    var secret: String?
}
