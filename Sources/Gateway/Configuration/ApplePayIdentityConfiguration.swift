import Foundation
import GatewayConfigurationFile

/// Writes an installed identity into a JSON configuration file: the identity name is added to
/// `merchant.<ID>.applePay.identities` and `merchant.<ID>.applePay.<NAME>` gets the key and
/// certificate paths. Everything is checked before the first file is written.
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

    /// An identity to be written into a configuration file, checked before anything is written.
    public struct Change {
        public enum Kind: Sendable { case added, unchanged, replaced }
        public let kind: Kind
        public let path: String
        /// The merchant's identity names once the change is written.
        public let identities: [String]
        fileprivate let root: [String: Any]
    }

    /// Checks that the file lists `gatewayMerchant` and that `name` is free (or already these
    /// very files); an identity of that name with other files is replaced only when asked.
    public static func prepare(
        file path: String,
        gatewayMerchant: String,
        name: String,
        privateKey: String,
        certificate: String,
        replace: Bool
    ) throws(ConfigurationError) -> Change {
        _ = try ConfigurationFile(path: path)  // syntax errors with their line and column
        guard let data = FileManager.default.contents(atPath: path),
            var root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw ConfigurationError(location: path, problem: "cannot be read as a JSON object") }
        let listed = root["merchants"] as? [String] ?? []
        guard listed.contains(gatewayMerchant) else {
            throw ConfigurationError(
                location: path,
                key: "merchants",
                problem: "does not list \(gatewayMerchant) (it lists \(listed.isEmpty ? "none" : listed.joined(separator: ", "))): "
                    + "add \(gatewayMerchant) to merchants first, or give --gateway-merchant one of those"
            )
        }
        var merchant = root["merchant"] as? [String: Any] ?? [:]
        var settings = merchant[gatewayMerchant] as? [String: Any] ?? [:]
        var applePay = settings["applePay"] as? [String: Any] ?? [:]
        var identities = applePay["identities"] as? [String] ?? []
        let entry = ["privateKey": privateKey, "certificate": certificate]
        var kind = Change.Kind.added
        if let existing = applePay[name] as? [String: Any] {
            if existing as? [String: String] == entry, identities.contains(name) {
                return Change(kind: .unchanged, path: path, identities: identities, root: root)
            }
            guard replace else {
                throw ConfigurationError(
                    location: path,
                    key: "merchant.\(gatewayMerchant).applePay.\(name)",
                    problem: "is already an identity (\(existing["privateKey"] as? String ?? "another key")): pass --name "
                        + "with another name to add this one beside it (as a rotation does), or --replace to replace it"
                )
            }
            kind = .replaced
        }
        if !identities.contains(name) { identities.append(name) }
        applePay["identities"] = identities
        applePay[name] = entry
        settings["applePay"] = applePay
        merchant[gatewayMerchant] = settings
        root["merchant"] = merchant
        return Change(kind: kind, path: path, identities: identities, root: root)
    }

    /// Writes a prepared change. The file is rewritten as JSONSerialization writes it (keys
    /// sorted, its own indentation): comments cannot be in it, and the caller says so.
    public static func write(_ change: Change) throws(ConfigurationError) {
        guard change.kind != .unchanged else { return }
        do {
            try Data(text(change.root).utf8).write(to: URL(fileURLWithPath: change.path), options: .atomic)
        } catch {
            throw ConfigurationError(location: change.path, problem: "cannot be written")
        }
    }

    private static func text(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
