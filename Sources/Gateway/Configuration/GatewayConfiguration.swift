import Foundation

/// Everything the service is configured with, validated.
///
/// Read from (highest priority first) command-line flags, `GATEWAY_*` environment variables, the
/// `--config` JSON file, and, when no file is given, the embedded sandbox defaults. Keys:
///
/// | key | type | default |
/// | --- | --- | --- |
/// | `server.host` | string | `127.0.0.1` |
/// | `server.port` | int | `8080` |
/// | `mode` | `sandbox` or `production` | `sandbox` |
/// | `store.url` | `sqlite:///absolute/path`, `sqlite://relative/path`, `postgres://user[:password]@host[:port]/db` | `sqlite://data/gateway.sqlite` |
/// | `store.maxConnections` | int 1-1000: PostgreSQL connections per replica | `10` |
/// | `store.timeoutSeconds` | int 1-300: the longest a PostgreSQL operation (with its wait for a connection) may take | `5` |
/// | `log.level` | trace, debug, info, notice, warning, error, critical | `info` |
/// | `applePay.signingTimeWindowSeconds` | int | `300` |
/// | `applePay.trustRoots` | string array of PEM/DER paths, trusted besides Apple Root CA - G3 | none |
/// | `merchants` | string array of merchant ids | sandbox: `TESTMERCHANT` |
/// | `merchant.<ID>.apiPasswords` | string array, 1 or 2 (rotation), 32 hex characters, secret | |
/// | `merchant.<ID>.applePay.identities` | string array of identity names | none |
/// | `merchant.<ID>.applePay.<NAME>.privateKey` | path: PEM or DER key, or PKCS#12 bundle | |
/// | `merchant.<ID>.applePay.<NAME>.certificate` | path: payment processing certificate | |
/// | `merchant.<ID>.applePay.<NAME>.merchantIdentifier` | string, for a key without certificate | |
/// | `merchant.<ID>.applePay.<NAME>.pkcs12Password` | string, secret, when privateKey is PKCS#12 | |
/// | `merchant.<ID>.simulator.amountMatching` | `both`, `minorUnits`, `wholeAmount` | `both` |
struct GatewayConfiguration: Sendable {
    enum Mode: String, Sendable {
        case sandbox
        case production
    }

    struct MerchantSettings: Sendable {
        var id: String
        var apiPasswords: [String]
        var identities: [IdentitySettings]
        var amountMatching: SimulatedAcquirer.AmountMatching
    }

    struct IdentitySettings: Sendable {
        var name: String
        var privateKeyPath: String
        var certificatePath: String?
        var merchantIdentifier: String?
        var pkcs12Password: String?
    }

    var host = "127.0.0.1"
    var port = 8080
    var mode = Mode.sandbox
    var storeURL = "sqlite://data/gateway.sqlite"
    var storeMaxConnections = 10
    var storeTimeout: Duration = .seconds(5)
    var logLevel = "info"
    var signingTimeWindow: TimeInterval = 300
    var trustRootPaths: [String] = []
    var merchants: [MerchantSettings] = []

    /// The store the URL names.
    var storeLocation: StoreLocation {
        get throws(ConfigurationError) { try StoreLocation(url: storeURL) }
    }

    /// The SQLite file the store URL names.
    var sqlitePath: String {
        get throws(ConfigurationError) {
            guard case .sqlite(let path) = try storeLocation else {
                throw ConfigurationError(key: "store.url", problem: "is not a sqlite:// URL")
            }
            return path
        }
    }
}

/// A configuration value that is missing or wrong, by key.
struct ConfigurationError: Error, CustomStringConvertible {
    let key: String
    let problem: String
    var description: String { "configuration key '\(key)' \(problem)" }
}
