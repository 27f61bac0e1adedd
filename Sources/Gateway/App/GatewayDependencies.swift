import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayConfigurationFile
import GatewayCore
import GatewayObservability
import GatewayStores
import GooglePaySandbox
import GooglePayToken
import MPGSAPI
import MerchantConsole
import NIOCore
import ServiceLifecycle

/// What the service runs on, assembled once from the configuration. Tests build it the same way
/// with a fixed clock and a temporary store.
struct GatewayDependencies: Sendable {
    var configuration: GatewayConfiguration
    var merchants: [String: Merchant]
    var store: any TransactionStore
    /// The same database's sessions (the store opened for transactions also keeps sessions).
    var sessionStore: any SessionStore = NoStore()
    /// The same database's 3-D Secure authentications.
    var authenticationStore: any AuthenticationStore = NoAuthenticationStore()
    /// The same database's gateway tokens.
    var tokenStore: any TokenStore = NoStore()
    /// The same database's Merchant Administration operators, sessions and audit log; nil (no
    /// console) for a store without them.
    var consoleStore: (any ConsoleStore)?
    /// Session expiry and login lockout for the console (tests shorten them).
    var consolePolicy = ConsolePolicy()
    /// Where console logins hash passwords: one line for every listener's console.
    var passwordChecks = PasswordCheckQueue()
    /// Where the console keeps each merchant's Apple Pay keys: `applepay/` beside the sandbox
    /// authority (`data/applepay`, `gateway applepay-identity`'s default, with the defaults).
    var consoleIdentityRoot: URL {
        URL(fileURLWithPath: configuration.sandboxAuthorityDirectory).deletingLastPathComponent().appending(path: "applepay")
    }
    /// The same database's notification outbox; nil for a store without one.
    var outbox: (any NotificationOutbox)?
    /// The same database's risk review decisions (issue 64); nil for a store without them.
    var riskReviews: (any RiskReviewStore)?
    /// The same database's CONFIRM_BROWSER_PAYMENT writes (issue 64); nil for a store without them.
    var browserPaymentConfirmations: (any BrowserPaymentConfirmationStore)?
    /// Wakes the delivery loop when this replica commits a transaction with a notification.
    let notificationDoorbell = NotificationDoorbell()
    /// What this replica just recorded with a notification, handed to its delivery loop.
    let justRecorded = JustRecordedTransactions()
    /// Seals session content at rest; nil (sessions off) in production without `sessions.encryptionKey`.
    var sessionCipher: SessionCipher?
    /// Whether other replicas may share the store (PostgreSQL), so changes made through one
    /// replica's console must be read back by the others.
    var storeIsShared: Bool { consoleStore is PostgresTransactionStore }
    /// What the application runs for the store while it serves (PostgreSQL's connection pool).
    var storeServices: [any Service] = []
    var decryptor: ApplePayTokenDecryptor
    /// Present in sandbox mode only: mints tokens its own decryptor trusts.
    var sandboxIssuer: SandboxTokenIssuer?
    /// Google Pay: trusts `googlePay.rootKeys`, else Google's test keys (and, in sandbox mode,
    /// the sandbox root).
    var googlePayDecryptor: GooglePayTokenDecryptor
    /// Present in sandbox mode only: mints Google Pay tokens under the sandbox root.
    var googlePayMinter: GooglePayTokenMinter?
    var clock: @Sendable () -> Date
    /// Keys the fingerprints identical retries are matched by.
    var fingerprinter: RequestFingerprinter
    /// This gateway's own registry: tests build many gateways in one process.
    var metrics = GatewayMetrics()
    /// `log.stageTrace`: where each request's stages go, when set.
    var stageLog: StageTraceLog?
    /// The event loops the listeners serve on; the store runs its commits and timers behind them.
    let eventLoops: any EventLoopGroup = GatewayService.eventLoops

    /// Loads keys and trust roots and opens the store. `keys`: the ones `serve` settled with the
    /// store (``GatewayKeys``); without them, from files as before (tests, `check-config`).
    init(
        configuration: GatewayConfiguration,
        clock: @escaping @Sendable () -> Date = { Date() },
        store: (any TransactionStore)? = nil,
        keys: GatewayKeys? = nil
    ) throws {
        self.configuration = configuration
        self.clock = clock
        var merchants: [String: Merchant] = [:]
        for settings in configuration.merchants {
            guard merchants[settings.id] == nil else {
                throw ConfigurationError(key: "merchants", problem: "lists \(settings.id) twice")
            }
            merchants[settings.id] = try MerchantLoader.load(settings)
        }
        // ---- webhooks ----
        for (id, notifications) in try NotificationSecrets.merchantNotifications(configuration) {
            merchants[id]?.notifications = notifications
        }
        // ---- end webhooks ----
        self.merchants = merchants
        var roots = TrustRoots.apple
        for (index, path) in configuration.trustRootPaths.enumerated() {
            let key = "applePay.trustRoots[\(index)]"
            do {
                roots = roots.adding(try KeyMaterial.certificates(from: MerchantLoader.read(path, key: key)))
            } catch let error as ApplePayTokenError {
                throw ConfigurationError(key: key, problem: "is not a certificate: \(error.reason)")
            }
        }
        if configuration.mode == .sandbox {
            let issuer =
                try keys?.sandboxAuthority.map { SandboxTokenIssuer(authority: $0, directory: configuration.sandboxAuthorityDirectory) }
                ?? Self.sandboxIssuer(directory: configuration.sandboxAuthorityDirectory)
            roots = roots.adding([issuer.authority.root])
            sandboxIssuer = issuer
        }
        self.decryptor = ApplePayTokenDecryptor(
            trustRoots: roots,
            signingTimeWindow: configuration.signingTimeWindow,
            newChainsPerSecond: configuration.newChainsPerSecond,
            clock: clock
        )
        var googleRoots = try Self.googlePayRootKeys(configuration)
        if configuration.mode == .sandbox {
            let root = try Self.googlePaySandboxRoot(directory: configuration.googlePaySandboxDirectory)
            googleRoots = GoogleRootSigningKeys(googleRoots.keys + root.rootSigningKeys.keys)
            googlePayMinter = GooglePayTokenMinter(root: root)
        }
        self.googlePayDecryptor = GooglePayTokenDecryptor(rootKeys: googleRoots, clock: clock)
        // A store handed in (tests, `check-config`, `mint-token`) writes no key file.
        let fingerprinter = RequestFingerprinter(
            key: try keys?.requestFingerprint ?? Self.requestFingerprintKey(configuration, createFile: store == nil)
        )
        self.fingerprinter = fingerprinter
        do {
            stageLog = try configuration.stageTracePath.map(StageTraceLog.init(path:))
        } catch {
            throw ConfigurationError(key: "log.stageTrace", problem: error.description)
        }
        if let store {
            self.store = TimedTransactionStore(base: store, metrics: metrics)
            sessionStore = store as? any SessionStore ?? NoStore()
            authenticationStore = store as? any AuthenticationStore ?? NoAuthenticationStore()
            tokenStore = store as? any TokenStore ?? NoStore()
            consoleStore = store as? any ConsoleStore
            outbox = store as? any NotificationOutbox
            riskReviews = store as? any RiskReviewStore
            browserPaymentConfirmations = store as? any BrowserPaymentConfirmationStore
        } else {
            let opened = try configuration.openStore(eventLoops: eventLoops, sealingLegacyFingerprints: fingerprinter.sealLegacy)
            self.store = TimedTransactionStore(base: opened.store, metrics: metrics)
            sessionStore = opened.store as? any SessionStore ?? NoStore()
            authenticationStore = opened.store as? any AuthenticationStore ?? NoAuthenticationStore()
            tokenStore = opened.store as? any TokenStore ?? NoStore()
            consoleStore = opened.store as? any ConsoleStore
            outbox = opened.store as? any NotificationOutbox
            riskReviews = opened.store as? any RiskReviewStore
            browserPaymentConfirmations = opened.store as? any BrowserPaymentConfirmationStore
            storeServices = opened.services
        }
        var sessionKey = keys.map(\.sessionSealing) ?? configuration.sessions.encryptionKey
        // `check-config` and `mint-token` (no store) leave no key file a later `serve` would adopt.
        if keys == nil, sessionKey == nil, configuration.mode == .sandbox, !(store is NoStore) {
            sessionKey = try SessionKeyFile.loadOrCreate(
                at: SessionKeyFile.location(besideAuthority: configuration.sandboxAuthorityDirectory)
            )
        }
        sessionCipher = sessionKey.map { SessionCipher(key: $0) }
    }

    /// The configured key; else one generated beside a SQLite store (one process owns it) or, in
    /// sandbox mode, into the data directory (beside the session key). A PostgreSQL store in
    /// production is shared by replicas, which must share the key: it has to be configured.
    /// Without `createFile`, an unconfigured key that would be generated is a random one for
    /// this process, and the production requirement is still checked.
    private static func requestFingerprintKey(_ configuration: GatewayConfiguration, createFile: Bool) throws -> [UInt8] {
        let key = GatewayKeys.Name.requestFingerprint
        if let configured = configuration.requestFingerprintKey { return configured }
        let location = try configuration.storeLocation
        if !createFile, !(configuration.mode == .production && location.isPostgres) {
            var generator = SystemRandomNumberGenerator()
            return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        if let file = try GatewayKeys.requestFingerprintKeyFile(configuration) {
            return try SessionKeyFile.loadOrCreate(at: file, configurationKey: key)
        } else {
            throw ConfigurationError(
                key: key,
                problem:
                    "is required with a PostgreSQL store in production: every replica needs the same key (64 hex characters, e.g. from `openssl rand -hex 32`)"
            )
        }
    }

    /// Google's root signing keys from `googlePay.rootKeys`, else the test keys the gateway ships
    /// (production without the key has no merchant with Google Pay: the configuration checks it).
    private static func googlePayRootKeys(_ configuration: GatewayConfiguration) throws -> GoogleRootSigningKeys {
        guard let path = configuration.googlePayRootKeysPath else { return .googleTest }
        let text = String(decoding: try MerchantLoader.read(path, key: "googlePay.rootKeys"), as: UTF8.self)
        do {
            return try GoogleRootSigningKeys(keysJSON: text)
        } catch {
            throw ConfigurationError(key: "googlePay.rootKeys", problem: "names \(path), which cannot be used: \(error.reason)")
        }
    }

    private static func googlePaySandboxRoot(directory: String) throws -> GooglePaySandboxRoot {
        do {
            return try GooglePaySandboxDirectory.root(at: URL(fileURLWithPath: directory))
        } catch {
            throw ConfigurationError(key: "sandbox.googlePayDirectory", problem: "cannot be used: \(error.description)")
        }
    }

    /// The sandbox authority, generated on first use and kept, so tokens minted yesterday verify today.
    private static func sandboxIssuer(directory: String) throws -> SandboxTokenIssuer {
        do {
            let authority = try SandboxAuthority.loadOrCreate(at: URL(fileURLWithPath: directory))
            return SandboxTokenIssuer(authority: authority, directory: directory)
        } catch {
            throw ConfigurationError(key: "sandbox.authorityDirectory", problem: "cannot be used: \(error)")
        }
    }
}

extension GatewayDependencies {
    /// Which roots Apple Pay signatures may chain to, and which merchants have Google Pay off, as
    /// the start-up line says it.
    var trustDescription: String {
        var trusted = ["Apple Root CA - G3"]
        if let sandboxIssuer { trusted.append("the sandbox root in \(sandboxIssuer.directory)") }
        if !configuration.trustRootPaths.isEmpty { trusted.append("\(configuration.trustRootPaths.count) configured root(s)") }
        var description = "trusting " + (trusted.count == 1 ? "Apple Root CA - G3 alone" : trusted.joined(separator: ", "))
        let googlePayOff = configuration.googlePayOffWithoutRootKeys
        if !googlePayOff.isEmpty {
            description +=
                "; Google Pay off for \(googlePayOff.joined(separator: ", ")): production needs googlePay.rootKeys "
                + "(Google's keys.json; the gateway ships Google's test keys only)"
        }
        return description
    }
}
