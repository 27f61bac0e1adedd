import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// A stored row read column by column, by name, as the type the column must hold: a NULL where
/// a value must be, or a value of another type, throws ``UnreadableStoredValue``. Both stores'
/// rows conform, so a transaction is read back by one decoder.
protocol StoredRow {
    func text(_ column: String) throws -> String
    func optionalText(_ column: String) throws -> String?
    func integer(_ column: String) throws -> Int64
    func optionalInteger(_ column: String) throws -> Int64?
    func bytes(_ column: String) throws -> [UInt8]
    func optionalBytes(_ column: String) throws -> [UInt8]?
}

extension StoredTransaction {
    /// The transaction a row holds: the receipt's columns, the request's fingerprint and the
    /// stored response (selected as `ReceiptColumns.selectList, request_hash, response_format,
    /// response_body`).
    init(row: some StoredRow) throws {
        self.init(
            requestHash: try row.bytes("request_hash"),
            response: StoredResponse(
                format: ResponseFormat(rawValue: try row.text("response_format")),
                bytes: try row.bytes("response_body")
            ),
            receipt: try ReceiptColumns.receipt(row)
        )
    }
}

/// A value written to a typed column, whichever store writes it.
enum StoredValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)
    case bytes([UInt8])
    case null

    init(_ text: String?) { self = text.map(StoredValue.text) ?? .null }
    init(_ integer: Int64?) { self = integer.map(StoredValue.integer) ?? .null }
    init(_ integer: Int?) { self = integer.map { .integer(Int64($0)) } ?? .null }
}

/// How a transaction's receipt is kept, the same on both stores: amounts in minor units beside
/// their currency, the card summary, the acquirer's outcome and the order as the transaction
/// left it, each in a typed column. Follow-ons, Retrieve Order and every API render from these;
/// nothing reads a stored response back.
///
/// The identifying columns (merchant, order, transaction, type, amount, currency, gateway code,
/// target, time) predate this list and are written beside it.
enum ReceiptColumns {
    /// What a column holds.
    enum Kind { case text, integer }

    /// The columns `values(_:)` fills, in its order.
    static let columns: [(name: String, kind: Kind)] =
        [
            ("api_version", .integer), ("transaction_source", .text), ("transaction_reference", .text),
            ("card_number", .text), ("card_brand", .text), ("card_expiry_month", .integer), ("card_expiry_year", .integer),
            ("card_name", .text), ("device_number", .text), ("device_expiry_month", .integer),
            ("device_expiry_year", .integer), ("cryptogram_format", .text),
            ("acquirer_code", .text), ("acquirer_message", .text), ("authorized_minor", .integer),
            ("authorization_code", .text), ("acquirer_receipt", .text), ("stan", .text), ("security_code_result", .text),
            ("order_amount_minor", .integer), ("order_currency", .text), ("order_status", .text),
            ("order_total_authorized_minor", .integer), ("order_total_captured_minor", .integer),
            ("order_total_refunded_minor", .integer), ("order_wallet_provider", .text), ("order_reference", .text),
            ("order_created_at_ms", .integer), ("echo", .text),
        ] + authenticationColumns + riskColumns + [("browser_payment_type", .text), ("stored_on_file", .text)]
        + merchantConfirmationColumns

    /// A CONFIRM_AT_MERCHANT browser payment's confirmation and the fingerprint (base64) of the
    /// CONFIRM_BROWSER_PAYMENT that confirmed it (issue 64: SQLite step 21, PostgreSQL step 22).
    static let merchantConfirmationColumns: [(name: String, kind: Kind)] = [
        ("browser_payment_confirmation", .text), ("browser_payment_confirm_hash", .text),
    ]

    /// The 3-D Secure authentication an AUTHORIZE or PAY carried (SQLite step 8, PostgreSQL step 9).
    static let authenticationColumns: [(name: String, kind: Kind)] = [
        ("authentication_transaction_id", .text), ("authentication_status", .text), ("authentication_version", .text),
        ("authentication_acs_eci", .text), ("authentication_3ds_transaction_id", .text),
        ("authentication_ds_transaction_id", .text), ("authentication_protocol_version", .text),
        ("authentication_3ds2_status", .text),
    ]

    /// The risk assessment an AUTHORIZE, PAY or VERIFY got, and its review (issue 64: SQLite
    /// step 18, PostgreSQL step 19). NULL when the merchant's risk rules are off.
    static let riskColumns: [(name: String, kind: Kind)] = [
        ("risk_gateway_code", .text), ("risk_rule", .text), ("risk_review_decision", .text),
        ("risk_review_operator", .text), ("risk_review_at_ms", .integer),
    ]

    static let names = columns.map(\.name)

    /// The older columns the receipt is also read from.
    static let identityColumns = [
        "merchant_id", "order_id", "transaction_id", "type", "amount_minor", "currency", "gateway_code",
        "target_transaction_id", "created_at_ms",
    ]

    /// The select list ``receipt(_:)`` reads.
    static let selectList = (identityColumns + names).joined(separator: ", ")

    static func values(_ receipt: TransactionReceipt) -> [StoredValue] {
        let card = receipt.card
        let outcome = receipt.outcome
        let order = receipt.order
        return [
            .integer(Int64(receipt.version.number)), .text(receipt.transactionSource), StoredValue(receipt.transactionReference),
            .text(card.maskedNumber), .text(card.brand.brand), StoredValue(card.expiry?.month), StoredValue(card.expiry?.year),
            StoredValue(card.nameOnCard),
            StoredValue(card.device?.maskedNumber), StoredValue(card.device?.expiry.month),
            StoredValue(card.device?.expiry.year), StoredValue(card.device?.cryptogramFormat.rawValue),
            StoredValue(outcome.acquirerCode), StoredValue(outcome.acquirerMessage), .integer(outcome.authorizedMinorUnits),
            StoredValue(outcome.authorizationCode), StoredValue(outcome.receipt), StoredValue(outcome.stan),
            StoredValue(outcome.securityCodeResult?.rawValue),
            .integer(order.amountMinorUnits), .text(order.currency), .text(order.status.rawValue),
            .integer(order.totalAuthorizedMinorUnits), .integer(order.totalCapturedMinorUnits),
            .integer(order.totalRefundedMinorUnits), StoredValue(order.walletProvider), StoredValue(order.reference),
            .integer(order.creationTime.milliseconds), StoredValue(echoText(receipt.echo)),
        ] + authenticationValues(receipt.authentication) + riskValues(receipt.risk) + [
            StoredValue(receipt.browserPayment?.rawValue), StoredValue(receipt.storedOnFile?.rawValue),
            StoredValue(receipt.merchantConfirmation?.status.rawValue),
            StoredValue(receipt.merchantConfirmation?.requestHash.map { Data($0).base64EncodedString() }),
        ]
    }

    private static func merchantConfirmation(_ row: some StoredRow) throws -> MerchantConfirmation? {
        guard let text = try row.optionalText("browser_payment_confirmation") else { return nil }
        let status = try decode(MerchantConfirmation.Status.init(rawValue:), text, column: "browser_payment_confirmation")
        let hashText = try row.optionalText("browser_payment_confirm_hash")
        let hash = try hashText.map { try decode({ Data(base64Encoded: $0).map(Array.init) }, $0, column: "browser_payment_confirm_hash") }
        // A status without its fingerprint, or the other way round, is a row this gateway did not write.
        return try decode({ _ in MerchantConfirmation(status: status, requestHash: hash) }, text, column: "browser_payment_confirmation")
    }

    private static func riskValues(_ risk: RiskAssessment?) -> [StoredValue] {
        guard let risk else { return riskColumns.map { _ in .null } }
        return [
            .text(risk.gatewayCode.rawValue), StoredValue(risk.rule?.rawValue), .text(risk.review.decision.rawValue),
            StoredValue(risk.review.operatorName), StoredValue(risk.review.time?.milliseconds),
        ]
    }

    private static func risk(_ row: some StoredRow) throws -> RiskAssessment? {
        guard let code = try row.optionalText("risk_gateway_code") else { return nil }
        return RiskAssessment(
            gatewayCode: try decode(RiskGatewayCode.init(rawValue:), code, column: "risk_gateway_code"),
            rule: try row.optionalText("risk_rule").map { try decode(SimulatedRiskRule.init(rawValue:), $0, column: "risk_rule") },
            review: RiskReview(
                decision: try decode(RiskReviewDecision.init(rawValue:), try row.text("risk_review_decision"), column: "risk_review_decision"),
                operatorName: try row.optionalText("risk_review_operator"),
                time: try row.optionalInteger("risk_review_at_ms").map { Date(milliseconds: $0) }
            )
        )
    }

    private static func authenticationValues(_ authentication: PaymentAuthentication?) -> [StoredValue] {
        guard let authentication else { return authenticationColumns.map { _ in .null } }
        return [
            .text(authentication.transactionId), .text(authentication.status.rawValue), .text(authentication.version),
            StoredValue(authentication.acsEci), StoredValue(authentication.threeDSTransactionId),
            StoredValue(authentication.dsTransactionId), StoredValue(authentication.protocolVersion),
            StoredValue(authentication.transactionStatus?.rawValue),
        ]
    }

    private static func authentication(_ row: some StoredRow) throws -> PaymentAuthentication? {
        guard let transactionId = try row.optionalText("authentication_transaction_id") else { return nil }
        var transactionStatus: ThreeDSTransactionStatus?
        if let text = try row.optionalText("authentication_3ds2_status") {
            transactionStatus = try decode(ThreeDSTransactionStatus.init(rawValue:), text, column: "authentication_3ds2_status")
        }
        return PaymentAuthentication(
            transactionId: transactionId,
            status: try decode(AuthenticationStatus.init(rawValue:), try row.text("authentication_status"), column: "authentication_status"),
            version: try row.text("authentication_version"),
            acsEci: try row.optionalText("authentication_acs_eci"),
            threeDSTransactionId: try row.optionalText("authentication_3ds_transaction_id"),
            dsTransactionId: try row.optionalText("authentication_ds_transaction_id"),
            protocolVersion: try row.optionalText("authentication_protocol_version"),
            transactionStatus: transactionStatus
        )
    }

    /// The receipt a `transactions` row holds.
    static func receipt(_ row: some StoredRow) throws -> TransactionReceipt {
        let currency = try decode(Currency.init(code:), try row.text("currency"), column: "currency")
        var receipt = TransactionReceipt(
            merchantId: try row.text("merchant_id"),
            orderId: try row.text("order_id"),
            transactionId: try row.text("transaction_id"),
            version: try decode({ APIVersion(String($0)) }, try row.integer("api_version"), column: "api_version"),
            transactionType: try decode(TransactionType.init(rawValue:), try row.text("type"), column: "type"),
            amount: Amount(minorUnits: try row.integer("amount_minor"), currency: currency),
            transactionSource: try row.text("transaction_source"),
            transactionReference: try row.optionalText("transaction_reference"),
            targetTransactionId: try row.optionalText("target_transaction_id"),
            card: try card(row),
            outcome: try outcome(row),
            order: try order(row),
            time: Date(milliseconds: try row.integer("created_at_ms")),
            echo: try echo(row)
        )
        receipt.authentication = try authentication(row)
        receipt.risk = try risk(row)
        if let type = try row.optionalText("browser_payment_type") {
            receipt.browserPayment = try decode(BrowserPaymentType.init(rawValue:), type, column: "browser_payment_type")
        }
        if let storedOnFile = try row.optionalText("stored_on_file") {
            receipt.storedOnFile = try decode(StoredOnFile.init(rawValue:), storedOnFile, column: "stored_on_file")
        }
        receipt.merchantConfirmation = try merchantConfirmation(row)
        return receipt
    }

    private static func card(_ row: some StoredRow) throws -> CardDetails {
        var device: CardDetails.Device?
        if let number = try row.optionalText("device_number") {
            device = CardDetails.Device(
                maskedNumber: number,
                expiry: try expiry(row, "device_expiry_month", "device_expiry_year"),
                cryptogramFormat: try decode(
                    CryptogramFormat.init(rawValue:),
                    try row.text("cryptogram_format"),
                    column: "cryptogram_format"
                )
            )
        }
        return CardDetails(
            maskedNumber: try row.text("card_number"),
            brand: CardBrand(name: try row.text("card_brand")),
            expiry: try row.optionalInteger("card_expiry_month") != nil ? expiry(row, "card_expiry_month", "card_expiry_year") : nil,
            nameOnCard: try row.optionalText("card_name"),
            device: device
        )
    }

    private static func expiry(_ row: some StoredRow, _ month: String, _ year: String) throws -> CardExpiry {
        let monthValue = try row.integer(month)
        let yearValue = try row.integer(year)
        guard (1...12).contains(monthValue) else { throw UnreadableStoredValue(column: month, value: "\(monthValue)") }
        guard (0...99).contains(yearValue) else { throw UnreadableStoredValue(column: year, value: "\(yearValue)") }
        return CardExpiry(month: Int(monthValue), year: Int(yearValue))
    }

    private static func outcome(_ row: some StoredRow) throws -> AcquirerOutcome {
        var outcome = AcquirerOutcome(
            gatewayCode: try decode(GatewayCode.init(rawValue:), try row.text("gateway_code"), column: "gateway_code"),
            acquirerCode: try row.optionalText("acquirer_code"),
            acquirerMessage: try row.optionalText("acquirer_message"),
            authorizedMinorUnits: try row.integer("authorized_minor")
        )
        outcome.authorizationCode = try row.optionalText("authorization_code")
        outcome.receipt = try row.optionalText("acquirer_receipt")
        outcome.stan = try row.optionalText("stan")
        if let text = try row.optionalText("security_code_result") {
            outcome.securityCodeResult = try decode(SecurityCodeResult.init(rawValue:), text, column: "security_code_result")
        }
        return outcome
    }

    private static func order(_ row: some StoredRow) throws -> OrderState {
        OrderState(
            amountMinorUnits: try row.integer("order_amount_minor"),
            currency: try row.text("order_currency"),
            status: try decode(OrderStatus.init(rawValue:), try row.text("order_status"), column: "order_status"),
            totalAuthorizedMinorUnits: try row.integer("order_total_authorized_minor"),
            totalCapturedMinorUnits: try row.integer("order_total_captured_minor"),
            totalRefundedMinorUnits: try row.integer("order_total_refunded_minor"),
            walletProvider: try row.optionalText("order_wallet_provider"),
            reference: try row.optionalText("order_reference"),
            creationTime: Date(milliseconds: try row.integer("order_created_at_ms"))
        )
    }

    /// The echo as JSON text; NULL when the requests echoed nothing (most do not).
    private static func echoText(_ echo: RequestEcho) -> String? {
        if case .object(let members) = echo.json, members.isEmpty { return nil }
        return String(decoding: echo.json.serialized(), as: UTF8.self)
    }

    private static func echo(_ row: some StoredRow) throws -> RequestEcho {
        guard let text = try row.optionalText("echo") else { return RequestEcho() }
        do {
            return RequestEcho(try JSONValue(parsing: Array(text.utf8)))
        } catch {
            throw UnreadableStoredValue(column: "echo", value: "\(text.utf8.count) bytes that are not JSON")
        }
    }

    private static func decode<Raw, Value>(_ make: (Raw) -> Value?, _ raw: Raw, column: String) throws -> Value {
        guard let value = make(raw) else { throw UnreadableStoredValue(column: column, value: "\(raw)") }
        return value
    }
}
