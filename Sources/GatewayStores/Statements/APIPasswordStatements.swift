import Foundation
import GatewayCore

/// Merchant Administration's API password rotation log, the same on SQLite and PostgreSQL
/// (``StoreStatement``).
enum APIPasswordStatements {
    static func insert(_ change: APIPasswordChange) -> StoreStatement {
        StoreStatement(
            """
            INSERT INTO api_password_changes (merchant_id, digest, kind, operator_name, time_ms)
            VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING 1
            """,
            [
                .text(change.merchantId), .text(change.digest), .text(change.kind.rawValue), .text(change.operatorName),
                .integer(change.time.milliseconds),
            ]
        )
    }

    /// Every change in time order, then by `insertionOrder` where the store numbers its rows.
    static func changes(insertionOrder: String?) -> StoreStatement {
        StoreStatement(
            "SELECT merchant_id, digest, kind, operator_name, time_ms FROM api_password_changes ORDER BY time_ms"
                + (insertionOrder.map { ", \($0)" } ?? "")
        )
    }

    /// A row of ``changes(insertionOrder:)``.
    static func change(_ row: some StoredRow) throws -> APIPasswordChange {
        APIPasswordChange(
            merchantId: try row.text("merchant_id"),
            digest: try row.text("digest"),
            kind: try StoredColumn.decode(APIPasswordChange.Kind.self, try row.text("kind"), column: "api_password_changes.kind"),
            operatorName: try row.text("operator_name"),
            time: Date(milliseconds: try row.integer("time_ms"))
        )
    }
}
