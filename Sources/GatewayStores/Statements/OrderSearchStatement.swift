import Foundation
import GatewayCore

/// Merchant Administration's order search as one statement for both stores: every condition
/// given, each value bound (never spliced), a page and one row more (to tell whether there is a
/// next). Its placeholders are numbered (``StoreStatement``): the last-four condition uses the
/// merchant and the digits twice.
enum OrderSearchStatement {
    /// `lastFour` is the SQL for a column's last four characters, written as the store's
    /// last-four indexes are, so that the search is served by them.
    static func search(_ query: OrderQuery, lastFour: (String) -> String) -> StoreStatement {
        var values: [StoredValue] = []
        func bind(_ value: StoredValue) -> String {
            values.append(value)
            return "?\(values.count)"
        }
        var conditions = ["merchant_id = \(bind(.text(query.merchantId)))"]
        if let orderId = query.orderId { conditions.append("order_id = \(bind(.text(orderId)))") }
        if let from = query.createdFrom { conditions.append("created_at_ms >= \(bind(.integer(from.milliseconds)))") }
        if let before = query.createdBefore { conditions.append("created_at_ms < \(bind(.integer(before.milliseconds)))") }
        if let status = query.status { conditions.append("status = \(bind(.text(status.rawValue)))") }
        if let minimum = query.minAmountMinorUnits { conditions.append("amount_minor >= \(bind(.integer(minimum)))") }
        if let maximum = query.maxAmountMinorUnits { conditions.append("amount_minor <= \(bind(.integer(maximum)))") }
        if let wallet = query.walletProvider { conditions.append("wallet_provider = \(bind(.text(wallet)))") }
        if let digits = query.cardLastFour {
            let merchant = bind(.text(query.merchantId))
            let lastFourDigits = bind(.text(digits))
            // `IS NOT NULL` beside each test: the indexes are partial, and neither database infers it.
            conditions.append(
                """
                order_id IN (SELECT order_id FROM transactions
                        WHERE merchant_id = \(merchant) AND card_number IS NOT NULL AND \(lastFour("card_number")) = \(lastFourDigits)
                    UNION SELECT order_id FROM transactions
                        WHERE merchant_id = \(merchant) AND device_number IS NOT NULL AND \(lastFour("device_number")) = \(lastFourDigits))
                """
            )
        }
        let limit = bind(.integer(Int64(query.limit + 1)))
        let offset = bind(.integer(Int64(query.offset)))
        return StoreStatement(
            """
            SELECT order_id, amount_minor, currency, status, total_authorized_minor, total_captured_minor,
                total_refunded_minor, wallet_provider, reference, created_at_ms, updated_at_ms
            FROM orders WHERE \(conditions.joined(separator: " AND "))
            ORDER BY created_at_ms DESC, order_id DESC LIMIT \(limit) OFFSET \(offset)
            """,
            values
        )
    }

    /// A row of ``search(_:lastFour:)``.
    static func listing(_ row: some StoredRow) throws -> OrderListing {
        OrderListing(
            orderId: try row.text("order_id"),
            state: try OrderState(row: row),
            lastUpdatedTime: Date(milliseconds: try row.integer("updated_at_ms"))
        )
    }

    /// The page the rows make: at most `limit`, and whether there were more.
    static func page(_ listings: [OrderListing], limit: Int) -> OrderPage {
        OrderPage(orders: Array(listings.prefix(limit)), hasMore: listings.count > limit)
    }
}
