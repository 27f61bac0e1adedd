import Foundation
import GatewayCore
import PostgresNIO

/// Merchant Administration's API password rotation log in the shared database: a rotation made
/// on one replica reaches the others at their next refresh.
extension PostgresTransactionStore {
    package func apiPasswordChanges() async throws -> [APIPasswordChange] {
        try await run { connection in
            let rows = try await connection.query(
                "SELECT merchant_id, digest, kind, operator_name, time_ms FROM api_password_changes ORDER BY time_ms",
                logger: self.logger
            )
            var changes: [APIPasswordChange] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                changes.append(
                    APIPasswordChange(
                        merchantId: try columns["merchant_id"].decode(String.self),
                        digest: try columns["digest"].decode(String.self),
                        kind: try StoredColumn.decode(
                            APIPasswordChange.Kind.self,
                            try columns["kind"].decode(String.self),
                            column: "api_password_changes.kind"
                        ),
                        operatorName: try columns["operator_name"].decode(String.self),
                        time: Date(milliseconds: try columns["time_ms"].decode(Int64.self))
                    )
                )
            }
            return changes
        }
    }

    package func recordAPIPasswordChange(_ change: APIPasswordChange) async throws -> Bool {
        try await changes(
            """
            INSERT INTO api_password_changes (merchant_id, digest, kind, operator_name, time_ms)
            VALUES (\(change.merchantId), \(change.digest), \(change.kind.rawValue), \(change.operatorName), \(change.time.milliseconds))
            ON CONFLICT DO NOTHING RETURNING 1
            """
        )
    }
}
