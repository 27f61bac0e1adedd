import Foundation
import GatewayCore

/// For checking configuration: no database is opened.
struct NoStore: TransactionStore {
    func transaction(merchantId: String, orderId: String, transactionId: String) async throws -> StoredTransaction? { nil }
    func order(merchantId: String, orderId: String) async throws -> StoredOrder? { nil }
    func transactions(merchantId: String, orderId: String) async throws -> [TransactionSummary] { [] }
    func isApplePayTokenUsed(_ key: ApplePayReplayKey) async throws -> Bool { false }
    func record(_ record: TransactionRecord) async throws -> RecordOutcome { .recorded }
    func prepare() async throws {}
    func checkReachable() async throws {}
}

extension NoStore: SessionStore {
    func insertSession(_ session: StoredSession) async throws {}
    func session(id: String) async throws -> StoredSession? { nil }
    func replaceSession(_ session: StoredSession, expectedVersion: String) async throws -> Bool { false }
    func deleteSession(id: String) async throws {}
    func deleteSessions(expiredBefore time: Date) async throws {}
}

extension NoStore: TokenStore {
    func insertToken(_ token: StoredToken) async throws -> Bool { false }
    func token(merchantId: String, token: String) async throws -> StoredToken? { nil }
    func replaceToken(_ token: StoredToken) async throws -> Bool { false }
    func deleteToken(merchantId: String, token: String) async throws -> Bool { false }
}
