import Foundation
import Gateway
import GatewayConfigurationFile
import GatewayCore

/// `gateway operator add|remove|passwd`: Merchant Administration operators in the configured
/// store, each change written to the merchant's audit log.
public enum OperatorAdministration {
    public enum Role: String, Sendable, CaseIterable {
        case admin, viewer
    }

    /// Why an operator command changed nothing.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Passwords shorter than this are refused (NIST SP 800-63B's minimum).
    static let minimumPasswordLength = 8

    public static func add(
        _ overrides: GatewayService.Overrides,
        merchantId: String,
        name: String,
        role: Role,
        password: String
    ) async throws {
        try checkPassword(password)
        try checkName(name)
        let hash = try PasswordHash(password: password)
        try await withStore(overrides, merchantId: merchantId) { store, now in
            let stored = StoredOperator(merchantId: merchantId, name: name, role: OperatorRole(rawValue: role.rawValue)!, passwordHash: hash)
            guard try await store.insertOperator(stored) else {
                throw Refusal(description: "merchant \(merchantId) already has an operator named \(name)")
            }
            try await store.appendAudit(
                AuditEntry(
                    merchantId: merchantId,
                    operatorName: name,
                    action: .operatorAdded,
                    detail: role.rawValue,
                    address: "command line",
                    time: now
                )
            )
        }
    }

    public static func remove(_ overrides: GatewayService.Overrides, merchantId: String, name: String) async throws {
        try await withStore(overrides, merchantId: merchantId) { store, now in
            guard try await store.removeOperator(merchantId: merchantId, name: name) else {
                throw Refusal(description: "merchant \(merchantId) has no operator named \(name)")
            }
            try await store.appendAudit(
                AuditEntry(merchantId: merchantId, operatorName: name, action: .operatorRemoved, detail: "", address: "command line", time: now)
            )
        }
    }

    /// A new password; clears the operator's lockout and ends their sessions, so whoever logged in
    /// with the old one is out.
    public static func changePassword(
        _ overrides: GatewayService.Overrides,
        merchantId: String,
        name: String,
        password: String
    ) async throws {
        try checkPassword(password)
        let hash = try PasswordHash(password: password)
        try await withStore(overrides, merchantId: merchantId) { store, now in
            try await setPassword(hash, merchantId: merchantId, name: name, in: store, at: now)
        }
    }

    /// `passwd`'s change to the store (tests call it on a running gateway's store).
    static func setPassword(_ hash: PasswordHash, merchantId: String, name: String, in store: any ConsoleStore, at now: Date) async throws {
        guard var stored = try await store.consoleOperator(merchantId: merchantId, name: name) else {
            throw Refusal(description: "merchant \(merchantId) has no operator named \(name)")
        }
        stored.passwordHash = hash
        stored.failedLogins = 0
        stored.lockedUntil = nil
        _ = try await store.updateOperator(stored)
        // After the new hash is stored: a login with the old password in between is ended too.
        try await store.deleteConsoleSessions(merchantId: merchantId, operatorName: name)
        try await store.appendAudit(
            AuditEntry(merchantId: merchantId, operatorName: name, action: .passwordChanged, detail: "", address: "command line", time: now)
        )
    }

    private static func checkPassword(_ password: String) throws {
        guard password.count >= minimumPasswordLength else {
            throw Refusal(description: "the password must have at least \(minimumPasswordLength) characters")
        }
    }

    private static func checkName(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || "._-@".contains($0) }) else {
            throw Refusal(description: "an operator name has 1 to 64 letters, digits, '.', '_', '-' or '@'")
        }
    }

    private static func withStore(
        _ overrides: GatewayService.Overrides,
        merchantId: String,
        _ body: (any ConsoleStore, Date) async throws -> Void
    ) async throws {
        let configuration = try await GatewayService.loadConfiguration(overrides)
        guard configuration.merchants.contains(where: { $0.id == merchantId }) else {
            throw ConfigurationError(key: "merchants", problem: "does not list \(merchantId)")
        }
        let opened = try configuration.openStore(eventLoops: GatewayService.eventLoops)
        guard let store = opened.store as? any ConsoleStore else {
            await opened.store.close()
            throw Refusal(description: "this store does not keep Merchant Administration operators")
        }
        // PostgreSQL's pool runs while the command works, as it does under `gateway serve`.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in opened.services { group.addTask { try await service.run() } }
            defer { group.cancelAll() }
            do {
                try await opened.store.prepare()
                try await body(store, Date())
            } catch {
                await opened.store.close()
                throw error
            }
        }
        await opened.store.close()
    }
}
