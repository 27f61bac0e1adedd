import Foundation
import GatewayCore

/// How a 3-D Secure 1 authentication is kept, the same on both stores (SQLite step 17,
/// PostgreSQL step 18): one typed column per value. The card number is masked; the PaReq and
/// PaRes are the sandbox ACS's random single-use values.
enum ThreeDS1Columns {
    static let names = [
        "merchant_id", "three_d_secure_id", "revision", "api_version", "status", "scenario", "amount_minor", "currency",
        "card_number", "card_brand", "card_expiry_month", "card_expiry_year", "card_name", "response_url",
        "page_generation_mode", "pa_req", "pa_res", "ve_res_enrolled", "pa_res_status", "acs_eci", "authentication_token",
        "xid", "used_by_order_id", "created_at_ms", "updated_at_ms",
    ]

    static let selectList = names.joined(separator: ", ")

    static let updatable = names.filter { !["merchant_id", "three_d_secure_id", "created_at_ms"].contains($0) }

    static func values(_ authentication: ThreeDS1Authentication) -> [String: StoredValue] {
        let card = authentication.card
        let values: [StoredValue] = [
            .text(authentication.merchantId), .text(authentication.threeDSecureId), .integer(authentication.revision),
            .integer(Int64(authentication.version.number)), .text(authentication.status.rawValue),
            .text(authentication.scenario.rawValue), .integer(authentication.amount.minorUnits),
            .text(authentication.amount.currency.code), .text(card.maskedNumber), .text(card.brand.brand),
            StoredValue(card.expiry?.month), StoredValue(card.expiry?.year), StoredValue(card.nameOnCard),
            .text(authentication.responseUrl), .text(authentication.pageGenerationMode.rawValue),
            StoredValue(authentication.paReq), StoredValue(authentication.paRes), .text(authentication.veResEnrolled.rawValue),
            StoredValue(authentication.paResStatus?.rawValue), StoredValue(authentication.acsEci),
            StoredValue(authentication.authenticationToken), .text(authentication.xid), StoredValue(authentication.usedByOrderId),
            .integer(authentication.createdAt.milliseconds), .integer(authentication.updatedAt.milliseconds),
        ]
        return Dictionary(uniqueKeysWithValues: zip(names, values))
    }

    static func authentication(_ row: some StoredRow) throws -> ThreeDS1Authentication {
        let table = "three_ds1_authentications"
        let currencyCode = try row.text("currency")
        guard let currency = Currency(code: currencyCode) else { throw UnreadableStoredValue(column: "\(table).currency", value: currencyCode) }
        let versionNumber = try row.integer("api_version")
        guard let version = APIVersion(String(versionNumber)) else {
            throw UnreadableStoredValue(column: "\(table).api_version", value: "\(versionNumber)")
        }
        var expiry: CardExpiry?
        if let month = try row.optionalInteger("card_expiry_month"), let year = try row.optionalInteger("card_expiry_year") {
            expiry = CardExpiry(month: Int(month), year: Int(year))
        }
        var paResStatus: ThreeDS1PaResStatus?
        if let text = try row.optionalText("pa_res_status") {
            paResStatus = try StoredColumn.decode(ThreeDS1PaResStatus.self, text, column: "\(table).pa_res_status")
        }
        return ThreeDS1Authentication(
            merchantId: try row.text("merchant_id"),
            threeDSecureId: try row.text("three_d_secure_id"),
            version: version,
            status: try StoredColumn.decode(ThreeDS1Status.self, try row.text("status"), column: "\(table).status"),
            scenario: try StoredColumn.decode(ThreeDSScenario.self, try row.text("scenario"), column: "\(table).scenario"),
            amount: Amount(minorUnits: try row.integer("amount_minor"), currency: currency),
            card: CardDetails(
                maskedNumber: try row.text("card_number"),
                brand: CardBrand(name: try row.text("card_brand")),
                expiry: expiry,
                nameOnCard: try row.optionalText("card_name")
            ),
            responseUrl: try row.text("response_url"),
            pageGenerationMode: try StoredColumn.decode(
                ThreeDS1PageGenerationMode.self,
                try row.text("page_generation_mode"),
                column: "\(table).page_generation_mode"
            ),
            paReq: try row.optionalText("pa_req"),
            paRes: try row.optionalText("pa_res"),
            veResEnrolled: try StoredColumn.decode(ThreeDS1Enrolled.self, try row.text("ve_res_enrolled"), column: "\(table).ve_res_enrolled"),
            paResStatus: paResStatus,
            acsEci: try row.optionalText("acs_eci"),
            authenticationToken: try row.optionalText("authentication_token"),
            xid: try row.text("xid"),
            usedByOrderId: try row.optionalText("used_by_order_id"),
            revision: try row.integer("revision"),
            createdAt: Date(milliseconds: try row.integer("created_at_ms")),
            updatedAt: Date(milliseconds: try row.integer("updated_at_ms"))
        )
    }
}
