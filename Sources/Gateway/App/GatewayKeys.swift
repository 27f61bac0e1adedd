import ApplePaySandbox
import Foundation
import GatewayConfigurationFile
import GatewayCore

/// The keys every replica sharing a store must hold the same of, settled with the store before
/// `serve` builds anything: the request fingerprint key (identical retries), the key sealing
/// sessions and gateway tokens, and in sandbox mode the sandbox authority (the tokens it trusts).
///
/// The store keeps a check value of each, the first replica's; a replica holding another key
/// refuses to start, naming it, instead of answering an identical retry as "different details"
/// or a session with 500. A configured key (and anything in production) has only its check
/// value in the store. A key sandbox mode generates lives in the store itself, so any number of
/// replicas agree with no set-up; a key file an earlier release generated is adopted as the
/// store's first, so an upgrade starts as it did.
struct GatewayKeys: Sendable {
    var requestFingerprint: [UInt8]
    /// Nil in production without `sessions.encryptionKey`: no sessions, no gateway tokens.
    var sessionSealing: [UInt8]?
    /// Sandbox mode only.
    var sandboxAuthority: SandboxAuthority?

    /// The configuration keys the store knows them by.
    enum Name {
        static let requestFingerprint = "store.requestFingerprintKey"
        static let sessionSealing = "sessions.encryptionKey"
        static let sandboxAuthority = "sandbox.authorityDirectory"
    }
}

extension GatewayKeys {
    /// Opens the store on its own (bringing its schema up to date), settles the keys and closes it.
    static func agreed(_ configuration: GatewayConfiguration) async throws -> GatewayKeys {
        let opened = try configuration.openStore(eventLoops: GatewayService.eventLoops)
        guard let store = opened.store as? any SharedKeyStore else {
            await opened.store.close()
            throw StartupFailure(description: "the store keeps no shared key check values")
        }
        // PostgreSQL's pool runs while the keys are settled, as it does under `serve`.
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for service in opened.services { group.addTask { try await service.run() } }
            defer { group.cancelAll() }
            do {
                try await opened.store.prepare()
                let keys = try await agree(configuration, with: store)
                await opened.store.close()
                return keys
            } catch {
                await opened.store.close()
                throw error
            }
        }
    }

    static func agree(_ configuration: GatewayConfiguration, with store: any SharedKeyStore) async throws -> GatewayKeys {
        var keys = GatewayKeys(
            requestFingerprint: try await requestFingerprintKey(configuration, store),
            sessionSealing: try await sessionKey(configuration, store)
        )
        if configuration.mode == .sandbox { keys.sandboxAuthority = try await sandboxAuthority(configuration, store) }
        return keys
    }

    /// Where a request fingerprint key generated without a store's help lives: beside a SQLite
    /// store (one process owns it), or in sandbox mode in the data directory; nil for PostgreSQL
    /// in production, whose replicas must be configured with one.
    static func requestFingerprintKeyFile(_ configuration: GatewayConfiguration) throws -> URL? {
        let name = "request-fingerprint.key"
        switch try configuration.storeLocation {
        case .sqlite(let path):
            return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(name)
        case .postgres where configuration.mode == .sandbox:
            return SessionKeyFile.location(besideAuthority: configuration.sandboxAuthorityDirectory)
                .deletingLastPathComponent().appendingPathComponent(name)
        case .postgres:
            return nil
        }
    }

    private static func requestFingerprintKey(_ configuration: GatewayConfiguration, _ store: any SharedKeyStore) async throws -> [UInt8] {
        let name = Name.requestFingerprint
        if let configured = configuration.requestFingerprintKey {
            return try await agree(on: configured, named: name, sharing: false, readFrom: nil, store)
        }
        guard let file = try requestFingerprintKeyFile(configuration) else {
            throw ConfigurationError(
                key: name,
                problem:
                    "is required with a PostgreSQL store in production: every replica needs the same key (64 hex characters, e.g. from `openssl rand -hex 32`)"
            )
        }
        if configuration.mode == .sandbox { return try await sandboxKey(named: name, formerFile: file, store) }
        // Production's SQLite store: the key stays in its file; the store gets its check value.
        let key = try SessionKeyFile.loadOrCreate(at: file, configurationKey: name)
        return try await agree(on: key, named: name, sharing: false, readFrom: file, store)
    }

    private static func sessionKey(_ configuration: GatewayConfiguration, _ store: any SharedKeyStore) async throws -> [UInt8]? {
        let name = Name.sessionSealing
        if let configured = configuration.sessions.encryptionKey {
            return try await agree(on: configured, named: name, sharing: false, readFrom: nil, store)
        }
        guard configuration.mode == .sandbox else { return nil }
        let file = SessionKeyFile.location(besideAuthority: configuration.sandboxAuthorityDirectory)
        return try await sandboxKey(named: name, formerFile: file, store)
    }

    /// A key sandbox mode generates: the store's. A file an earlier release generated there is
    /// the store's first key, or must be the key the store already has.
    private static func sandboxKey(named name: String, formerFile file: URL, _ store: any SharedKeyStore) async throws -> [UInt8] {
        if FileManager.default.fileExists(atPath: file.path) {
            let key = try SessionKeyFile.loadOrCreate(at: file, configurationKey: name)
            return try await agree(on: key, named: name, sharing: true, readFrom: file, store)
        }
        return try await refusingDisagreement(readFrom: nil) {
            try await store.adopt(named: name) {
                var generator = SystemRandomNumberGenerator()
                return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            }
        }
    }

    private static func agree(
        on key: [UInt8],
        named name: String,
        sharing: Bool,
        readFrom file: URL?,
        _ store: any SharedKeyStore
    ) async throws -> [UInt8] {
        _ = try await refusingDisagreement(readFrom: file) {
            try await store.agree(on: SharedKey(name: name, material: key, secret: sharing ? key : nil))
        }
        return key
    }

    /// The authority in the directory, which must be the store's; else the store's (the first
    /// replica's, generated by it), copied into the directory for `gateway mint-token` and the
    /// openssl recipe in Deploy/docs/testing.md.
    private static func sandboxAuthority(_ configuration: GatewayConfiguration, _ store: any SharedKeyStore) async throws -> SandboxAuthority {
        let name = Name.sandboxAuthority
        let directory = URL(fileURLWithPath: configuration.sandboxAuthorityDirectory)
        do {
            if SandboxAuthority.exists(at: directory) {
                let authority = try SandboxAuthority.load(from: directory)
                _ = try await refusingDisagreement(readFrom: directory) {
                    try await store.agree(
                        on: SharedKey(name: name, material: try authority.rootCertificateDER, secret: try authority.archived())
                    )
                }
                return authority
            }
            let archive = try await refusingDisagreement(readFrom: nil) {
                try await store.adopt(
                    named: name,
                    materialOf: { try SandboxAuthority.unarchive($0).rootCertificateDER },
                    generate: { try SandboxAuthority.generate().archived() }
                )
            }
            let adopted = try SandboxAuthority.unarchive(archive)
            let copy = try SandboxAuthority.loadOrCreate(at: directory) { adopted }
            // Another process wrote the directory first, with an authority of its own.
            guard try copy.rootCertificateDER == adopted.rootCertificateDER else {
                return try await sandboxAuthority(configuration, store)
            }
            return adopted
        } catch let error as ConfigurationError {
            throw error
        } catch let error as SandboxError {
            throw ConfigurationError(key: name, problem: "cannot be used: \(error)")
        }
    }

    /// Runs `body`, turning the core's refusal into a configuration error that names the key.
    private static func refusingDisagreement<Value>(
        readFrom source: URL?,
        _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            return try await body()
        } catch let disagreement as SharedKeyDisagreement {
            throw ConfigurationError(key: disagreement.name, problem: explanation(disagreement, source: source))
        }
    }

    private static func explanation(_ disagreement: SharedKeyDisagreement, source: URL?) -> String {
        switch disagreement.kind {
        case .differs(let kept, let ours):
            var problem =
                "differs from the one the store was first used with (check value \(kept.checkValueText), this replica's "
                + "\(ours.checkValueText)); every replica sharing the store must use the same"
            if let source, kept.secret != nil {
                problem += ": this replica's was read from \(source.path); remove it to adopt the store's"
            } else if kept.secret == nil {
                // A lost key cannot be recovered; starting afresh is the operator's decision.
                problem +=
                    " (if the first is lost for good, delete its row from the store's shared_keys table: "
                    + "identical retries of earlier requests will then be refused as different)"
            }
            return problem
        case .notAdoptable(let kept):
            return "is not configured here, but the store was first used with a configured one (check value "
                + "\(kept.checkValueText)); configure the same on every replica sharing the store"
        case .damaged(let kept):
            return "as the store keeps it does not match its check value \(kept.checkValueText): its shared_keys row was altered"
        }
    }
}
