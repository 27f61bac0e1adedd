import Foundation
import GatewayCore

/// Merchant Administration's API password rotation log in the SQLite file.
extension SQLiteTransactionStore {
    package func apiPasswordChanges() async throws -> [APIPasswordChange] {
        try await run { connection in
            try connection.rows(
                "SELECT merchant_id, digest, kind, operator_name, time_ms FROM api_password_changes ORDER BY time_ms, rowid",
                []
            ).map { row in
                APIPasswordChange(
                    merchantId: try row.text("merchant_id"),
                    digest: try row.text("digest"),
                    kind: try StoredColumn.decode(APIPasswordChange.Kind.self, row["kind"].text, column: "api_password_changes.kind"),
                    operatorName: try row.text("operator_name"),
                    time: Date(milliseconds: try row.integer("time_ms"))
                )
            }
        }
    }

    package func recordAPIPasswordChange(_ change: APIPasswordChange) async throws -> Bool {
        try await writer.perform { connection in
            try connection.query(
                """
                INSERT OR IGNORE INTO api_password_changes (merchant_id, digest, kind, operator_name, time_ms)
                VALUES (?, ?, ?, ?, ?)
                """,
                [
                    .text(change.merchantId), .text(change.digest), .text(change.kind.rawValue), .text(change.operatorName),
                    .integer(change.time.milliseconds),
                ]
            )
            return try connection.query("SELECT changes()").first?.first?.integer == 1
        }
    }
}
