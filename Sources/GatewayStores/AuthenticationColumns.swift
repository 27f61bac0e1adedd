import Foundation
import GatewayCore

/// How a payer authentication is kept, the same on both stores: one typed column per value
/// (SQLite step 8, PostgreSQL step 9). The authentication token is the simulated CAVV/AAV of a
/// sandbox authentication; the card number is masked.
enum AuthenticationColumns {
    /// The columns `values(_:)` fills, in its order.
    static let names = [
        "merchant_id", "order_id", "transaction_id", "revision", "api_version", "status", "scenario", "amount_minor",
        "currency", "card_number", "card_brand", "card_expiry_month", "card_expiry_year", "card_name", "channel",
        "purpose", "accept_versions", "redirect_response_url", "challenge_id", "three_ds_transaction_id",
        "ds_transaction_id", "protocol_version", "three_ds_status", "acs_eci", "authentication_token",
        "created_at_ms", "updated_at_ms",
    ]

    static let selectList = names.joined(separator: ", ")

    /// What an update may change: all but the identifiers and the creation time.
    static let updatable = names.filter { !["merchant_id", "order_id", "transaction_id", "created_at_ms"].contains($0) }

    static func values(_ authentication: PayerAuthentication) -> [String: StoredValue] {
        let card = authentication.card
        let threeDS = authentication.threeDS
        let values: [StoredValue] = [
            .text(authentication.merchantId), .text(authentication.orderId), .text(authentication.transactionId),
            .integer(authentication.revision), .integer(Int64(authentication.version.number)),
            .text(authentication.status.rawValue), .text(authentication.scenario.rawValue),
            .integer(authentication.amount.minorUnits), .text(authentication.amount.currency.code),
            .text(card.maskedNumber), .text(card.brand.brand), StoredValue(card.expiry?.month), StoredValue(card.expiry?.year),
            StoredValue(card.nameOnCard), .text(authentication.channel), .text(authentication.purpose),
            StoredValue(authentication.acceptVersions), StoredValue(authentication.redirectResponseUrl),
            StoredValue(authentication.challengeId), StoredValue(threeDS?.transactionId), StoredValue(threeDS?.dsTransactionId),
            StoredValue(threeDS?.protocolVersion), StoredValue(threeDS?.transactionStatus?.rawValue),
            StoredValue(threeDS?.acsEci), StoredValue(threeDS?.authenticationToken),
            .integer(authentication.createdAt.milliseconds), .integer(authentication.updatedAt.milliseconds),
        ]
        return Dictionary(uniqueKeysWithValues: zip(names, values))
    }

    static func authentication(_ row: some StoredRow) throws -> PayerAuthentication {
        let currencyCode = try row.text("currency")
        guard let currency = Currency(code: currencyCode) else {
            throw UnreadableStoredValue(column: "authentications.currency", value: currencyCode)
        }
        let versionNumber = try row.integer("api_version")
        guard let version = APIVersion(String(versionNumber)) else {
            throw UnreadableStoredValue(column: "authentications.api_version", value: "\(versionNumber)")
        }
        var expiry: CardExpiry?
        if let month = try row.optionalInteger("card_expiry_month"), let year = try row.optionalInteger("card_expiry_year") {
            expiry = CardExpiry(month: Int(month), year: Int(year))
        }
        var threeDS: ThreeDSResult?
        if let transactionId = try row.optionalText("three_ds_transaction_id") {
            var status: ThreeDSTransactionStatus?
            if let text = try row.optionalText("three_ds_status") {
                status = try StoredColumn.decode(ThreeDSTransactionStatus.self, text, column: "authentications.three_ds_status")
            }
            threeDS = ThreeDSResult(
                transactionId: transactionId,
                dsTransactionId: try row.text("ds_transaction_id"),
                protocolVersion: try row.text("protocol_version"),
                transactionStatus: status,
                acsEci: try row.optionalText("acs_eci"),
                authenticationToken: try row.optionalText("authentication_token")
            )
        }
        return PayerAuthentication(
            merchantId: try row.text("merchant_id"),
            orderId: try row.text("order_id"),
            transactionId: try row.text("transaction_id"),
            version: version,
            status: try StoredColumn.decode(AuthenticationStatus.self, try row.text("status"), column: "authentications.status"),
            scenario: try StoredColumn.decode(ThreeDSScenario.self, try row.text("scenario"), column: "authentications.scenario"),
            amount: Amount(minorUnits: try row.integer("amount_minor"), currency: currency),
            card: CardDetails(
                maskedNumber: try row.text("card_number"),
                brand: CardBrand(name: try row.text("card_brand")),
                expiry: expiry,
                nameOnCard: try row.optionalText("card_name")
            ),
            channel: try row.text("channel"),
            purpose: try row.text("purpose"),
            acceptVersions: try row.optionalText("accept_versions"),
            redirectResponseUrl: try row.optionalText("redirect_response_url"),
            challengeId: try row.optionalText("challenge_id"),
            threeDS: threeDS,
            revision: try row.integer("revision"),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            updatedAt: Date(milliseconds: try row.integer("updated_at_ms"))
        )
    }
}
