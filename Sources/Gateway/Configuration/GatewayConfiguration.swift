import Foundation
import GatewayConfigurationFile
import GatewayCore
import GatewayNotifications
import GatewayStores

/// Everything the service is configured with, validated.
///
/// Read from (highest priority first) command-line flags, `GATEWAY_*` environment variables, the
/// `--config` JSON file, and, when no file is given, the embedded sandbox defaults. A file key
/// that is not read is an error (``UnknownKeys``), so the keys read are the catalogue. Keys:
///
/// | key | type | default |
/// | --- | --- | --- |
/// | `server.host` | string | `127.0.0.1` |
/// | `server.port` | int | `8080` |
/// | `mode` | `sandbox` or `production` | `production` with a `--config` file, `sandbox` without |
/// | `store.url` | `sqlite:///absolute/path`, `sqlite://relative/path`, `postgres://user[:password]@host[:port]/db` | `sqlite://data/gateway.sqlite` |
/// | `store.maxConnections` | int 1-1000: PostgreSQL connections per replica | `10` |
/// | `store.requestFingerprintKey` | 64 hex characters (HMAC-SHA256), secret: keys the stored fingerprint identical retries are matched by; replicas sharing a store need the same key | SQLite: generated beside the database; sandbox: generated into `data/`; required for PostgreSQL in production |
/// | `store.timeoutSeconds` | int 1-300: the longest a PostgreSQL operation (with its wait for a connection) may take | `5` |
/// | `log.level` | trace, debug, info, notice, warning, error, critical | `info` |
/// | `log.format` | `json` (one object per line on stdout) or `text` | `json` |
/// | `log.stageTrace` | path: a diagnostic file, started afresh, with one line per answered request: its path and when it was read, handed to the writer, committed and answered (`scripts/bench-stages`) | none |
/// | `server.maxBodyBytes` | int, 1024-1048576: larger request bodies get 413 | `65536` |
/// | `server.headerTimeoutSeconds` | int, 1-300: from a request's first byte to its complete head | `10` |
/// | `server.bodyTimeoutSeconds` | int, 1-300: from a request's complete head to its body's last byte | `5` |
/// | `server.minBodyBytesPerSecond` | int, 0-1048576: a body arriving slower than this (after its first second) is cut off; 0: no check | `1024` |
/// | `server.idleTimeoutSeconds` | int, 1-3600: a connection with no request data for this long is closed | `60` |
/// | `server.maxConnections` | int, 1-100000: connections open at once; more wait in the backlog. At most three quarters may be connections that have not yet sent a whole request: past that the oldest of those is closed (never one connected less than 200 ms ago) | `1024` |
/// | `server.writeTimeoutSeconds` | int, 1-300: a connection whose responses wait unread this long is closed | `10` |
/// | `server.maxPipelinedRequests` | int, 1-1024: requests a client may send ahead of their responses; past it the connection is closed | `16` |
/// | `server.shutdownGracePeriodSeconds` | int, 0-300: how long SIGTERM waits for requests in flight | `25` |
/// | `applePay.signingTimeWindowSeconds` | int | `300` |
/// | `applePay.newChainsPerSecond` | int, 1-10000: certificate chains not seen before verified per second; a token beyond it gets SERVER_BUSY | `20` |
/// | `applePay.trustRoots` | string array of PEM/DER paths, trusted besides Apple Root CA - G3; sandbox mode only | none |
/// | `sandbox.authorityDirectory` | directory of the sandbox CA, created on first use; sandbox mode only | `data/sandbox-authority` |
/// | `merchants` | string array of merchant ids | sandbox: `TESTMERCHANT` |
/// | `merchant.<ID>.apiPasswords` | string array, 1 or 2 (rotation), 32 hex characters, secret | |
/// | `merchant.<ID>.applePay.identities` | string array of identity names | none |
/// | `merchant.<ID>.applePay.<NAME>.privateKey` | path: PEM or DER key, or PKCS#12 bundle | |
/// | `merchant.<ID>.applePay.<NAME>.certificate` | path: payment processing certificate | |
/// | `merchant.<ID>.applePay.<NAME>.merchantIdentifier` | string, for a key without certificate | |
/// | `merchant.<ID>.applePay.<NAME>.pkcs12Password` | string, secret, when privateKey is PKCS#12 | |
/// | `merchant.<ID>.googlePay.privateKeys` | string array of paths: P-256 private keys (PEM, or base64 PKCS#8), newest first; Google Pay tokens are decrypted with each in turn | none: no Google Pay |
/// | `merchant.<ID>.googlePay.gatewayId` | string: the gateway id Google signs for (`gateway:<id>`), as the page's tokenizationSpecification names it | `mpgs` |
/// | `googlePay.rootKeys` | path: Google's root signing keys (`keys.json`, from https://payments.developers.google.com/paymentmethodtoken/keys.json); production without it takes no Google Pay (the start-up line says so) | sandbox: Google's test keys and the sandbox root |
/// | `sandbox.googlePayDirectory` | directory of the sandbox Google root, created on first use; sandbox mode only | `google-pay-sandbox` beside `sandbox.authorityDirectory` (`data/google-pay-sandbox`) |
/// | `merchant.<ID>.simulator.amountMatching` | `both`, `minorUnits`, `wholeAmount` | `both` |
/// | `merchant.<ID>.simulator.testCards` | `current`, `legacy`: which test-card table wins where they disagree | `current` |
/// | `merchant.<ID>.risk` | `enabled`, `disabled`: the simulated risk assessment (`risk.response` on payments, test triggers in Deploy/docs/api.md) | `enabled` in sandbox mode, `disabled` in production |
/// | `merchant.<ID>.radial.decrypt` | `enabled`, `disabled`: whether the Radial-style Decrypt operation returns this merchant's decrypted card data | `disabled` (sandbox defaults: `enabled`) |
/// | `merchant.<ID>.tokens.format` | `random` (16 digits from 9, Luhn-valid) or `preserveSixFour` (the card's first six and last four, Luhn-invalid): the tokens the gateway generates | `random` |
/// | `merchant.<ID>.tokens.verificationStrategy` | `acquirer` (a VERIFY through the simulator), `basic` (the card's format), `none`: what a card is checked with before it is stored | `basic` |
/// | `merchant.<ID>.tokens.repositoryId` | string, 1-40 letters, digits, `-` or `_`: the `repositoryId` token responses show | the merchant id |
/// | `sessions.lifetimeSeconds` | int, 60-86400: how long a session lives after it is created | `3600` |
/// | `merchant.<ID>.notifications.url` | URL: where the merchant's webhook notifications go (`order.notificationUrl` overrides it); production: `https` only | none |
/// | `merchant.<ID>.notifications.secret` | 16-128 characters, secret: sent as `X-Notification-Secret` | sandbox: generated into `data/` |
/// | `notifications.retryHorizonSeconds`, `.initialRetrySeconds`, `.maxRetrySeconds` | ints: retries back off exponentially with jitter from the initial delay to the maximum, until the horizon | `259200`, `1`, `3600` |
/// | `notifications.connectTimeoutSeconds`, `.timeoutSeconds` | ints: per attempt | `5`, `10` |
/// | `notifications.allowedHosts` | string array: hosts production may notify although they resolve to private addresses | none |
/// | `notifications.pollIntervalMilliseconds`, `.concurrency` | ints: the delivery loop's poll and parallel sends | `50`, `16` |
/// | `sessions.encryptionKey` | 64 hex characters (AES-256), secret: seals session card data at rest | sandbox: generated into `data/` |
/// | `server.tls.certificate` | path: the server's PEM certificate chain, leaf first; reloaded on SIGHUP | none: plain HTTP |
/// | `server.tls.privateKey` | path: its PEM private key; reloaded on SIGHUP | |
/// | `server.certificateAuthentication.port` | int 0-65535: a second HTTPS listener that requires a client certificate; needs `server.tls.*` | none |
/// | `sandbox.tlsDirectory` | directory of the local CA `gateway serve --tls` makes on first use; sandbox mode only | `data/tls` |
/// | `merchant.<ID>.clientCertificates` | string array of names: the client certificates this merchant may present on that listener | none |
/// | `merchant.<ID>.clientCertificate.<NAME>.certificate` | path: a PEM certificate accepted as it is (pinned) | |
/// | `merchant.<ID>.clientCertificate.<NAME>.issuer` | path: a PEM CA certificate; with `subject`, any unexpired certificate it signed for that subject | |
/// | `merchant.<ID>.clientCertificate.<NAME>.subject` | string, the subject as RFC 4514 prints it (`CN=...,O=...`) | |
package struct GatewayConfiguration: Sendable {
    enum Mode: String, Sendable {
        case sandbox
        case production
    }

    enum LogFormat: String, Sendable {
        case json
        case text
    }

    /// What one client may take of the server: body size, time, connections.
    struct ServerLimits: Sendable {
        var maxBodyBytes = 64 * 1024
        var headerTimeoutSeconds = 10
        var bodyTimeoutSeconds = 5
        var minBodyBytesPerSecond = 1024
        var idleTimeoutSeconds = 60
        var maxConnections = 1024
        var writeTimeoutSeconds = 10
        var maxPipelinedRequests = 16
        var shutdownGracePeriodSeconds = 25
    }

    package struct MerchantSettings: Sendable {
        package var id: String
        var apiPasswords: [String]
        var identities: [IdentitySettings]
        var amountMatching: SimulatedAcquirer.AmountMatching
        var testCards: TestCardTable = .current
        /// Whether the Radial-style Decrypt operation may return this merchant's card data.
        var radialDecrypt = false
        /// Issue 64: the simulated risk assessment (`merchant.<ID>.risk`).
        var risk = false
        /// The token repository (`merchant.<ID>.tokens.*`); nil: the defaults, named by the merchant id.
        var tokens: TokenRepository?
        /// Issue 32: the certificates this merchant may authenticate with.
        var clientCertificates: [ClientCertificateSettings] = []
        /// `merchant.<ID>.notifications.*`; nil: no notifications.
        var notifications: MerchantNotificationSettings?
        /// `merchant.<ID>.googlePay.*`; nil: no Google Pay.
        package var googlePay: GooglePaySettings?
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
    /// Production unless said otherwise: a sandbox gateway trusts the sandbox root, which anyone can mint with.
    var mode = Mode.production
    var storeURL = "sqlite://data/gateway.sqlite"
    var storeMaxConnections = 10
    package var storeTimeout: Duration = .seconds(5)
    /// Keys request fingerprints; nil: generated (see ``GatewayDependencies``).
    var requestFingerprintKey: [UInt8]?
    var logLevel = "info"
    var logFormat = LogFormat.json
    var stageTracePath: String?
    var limits = ServerLimits()
    var signingTimeWindow: TimeInterval = 300
    /// Each new chain costs up to two P-384 verifications (about 1.1 ms each): 20 a second is at
    /// most about 5% of a core, and far more than real tokens bring (a chain is verified once).
    var newChainsPerSecond = 20
    var trustRootPaths: [String] = []
    /// The sandbox certificate authority whose root a sandbox-mode gateway trusts besides Apple's.
    var sandboxAuthorityDirectory = "data/sandbox-authority"
    package var merchants: [MerchantSettings] = []
    var sessions = SessionSettings()
    /// Issue 32: HTTPS on `port` (nil: plain HTTP), and the certificate-authentication listener.
    var tls: TLSSettings?
    var certificateAuthenticationPort: Int?
    var sandboxTLSDirectory = "data/tls"
    /// `notifications.*`: the webhook delivery loop.
    var notifications = NotificationSettings()
    /// `googlePay.rootKeys`: Google's keys.json to trust instead of the shipped test keys.
    var googlePayRootKeysPath: String?
    /// Merchants configured with Google Pay keys whose Google Pay is off: production without
    /// `googlePay.rootKeys` (the start-up line names them).
    var googlePayOffWithoutRootKeys: [String] = []
    /// Where the sandbox Google root lives (sandbox mode trusts it besides Google's test keys).
    var googlePaySandboxDirectoryOverride: String?
    /// `sandbox.googlePayDirectory`, else beside the sandbox authority (`data/google-pay-sandbox`
    /// by default; in the image, on its volume with the authority).
    package var googlePaySandboxDirectory: String {
        get {
            googlePaySandboxDirectoryOverride
                ?? URL(fileURLWithPath: sandboxAuthorityDirectory).deletingLastPathComponent().appending(path: "google-pay-sandbox").path
        }
        set { googlePaySandboxDirectoryOverride = newValue }
    }

    /// The store the URL names.
    package var storeLocation: StoreLocation {
        get throws(ConfigurationError) {
            do throws(InvalidStoreURL) {
                return try StoreLocation(url: storeURL)
            } catch {
                throw ConfigurationError(key: "store.url", problem: error.problem)
            }
        }
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
