import Foundation

/// Writes an installed identity into a JSON configuration file: the identity name is added to
/// `merchant.<ID>.applePay.identities` and `merchant.<ID>.applePay.<NAME>` gets the key and
/// certificate paths. The file is then loaded as `gateway serve` would load it, so a mistake is
/// reported now rather than at the next start.
public enum ApplePayIdentityConfiguration {
    /// The entries as a JSON object, for printing when no file is given.
    public static func entries(gatewayMerchant: String, name: String, privateKey: String, certificate: String) -> String {
        let object: [String: Any] = [
            "merchant": [
                gatewayMerchant: [
                    "applePay": ["identities": [name], name: ["privateKey": privateKey, "certificate": certificate]]
                ]
            ]
        ]
        return text(object)
    }

    public static func add(
        toFile path: String,
        gatewayMerchant: String,
        name: String,
        privateKey: String,
        certificate: String
    ) throws(ConfigurationError) {
        _ = try ConfigurationFile(path: path)  // syntax errors with their line and column
        guard let data = FileManager.default.contents(atPath: path),
            var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw ConfigurationError(location: path, problem: "cannot be read as a JSON object") }
        guard (root["merchants"] as? [String])?.contains(gatewayMerchant) == true else {
            throw ConfigurationError(
                location: path,
                key: "merchants",
                problem: "does not list \(gatewayMerchant): add the gateway merchant first, or pass --gateway-merchant"
            )
        }
        var merchant = root["merchant"] as? [String: Any] ?? [:]
        var settings = merchant[gatewayMerchant] as? [String: Any] ?? [:]
        var applePay = settings["applePay"] as? [String: Any] ?? [:]
        var identities = applePay["identities"] as? [String] ?? []
        if !identities.contains(name) { identities.append(name) }
        applePay["identities"] = identities
        applePay[name] = ["privateKey": privateKey, "certificate": certificate]
        settings["applePay"] = applePay
        merchant[gatewayMerchant] = settings
        root["merchant"] = merchant
        do {
            try Data(text(root).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ConfigurationError(location: path, problem: "cannot be written")
        }
    }

    private static func text(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
