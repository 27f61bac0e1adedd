import ApplePayToken
import GatewayCore
import HTTPTypes
import Testing
import WireJSON

@testable import MPGSAPI

/// The core's payment rejections in MPGS's words: each rule its status, cause, field and
/// validation type, as a client reads them.
@Suite("Payment rejections as MPGS errors")
struct PaymentRejectionWordingTests {
    struct Expected: Sendable, CustomStringConvertible {
        let rejection: PaymentRejection
        let status: Int
        let cause: String
        let field: String?
        let validationType: String?
        let explanationStart: String

        var description: String { "\(rejection)" }
    }

    static let usd = Currency(code: "USD")!
    static let eur = Currency(code: "EUR")!
    static func amount(_ text: String) -> Amount { try! Amount(parsing: text, currency: usd) }

    static let table: [Expected] = [
        Expected(
            rejection: .transactionIdReused("t1"),
            status: 400,
            cause: "INVALID_REQUEST",
            field: "transaction.id",
            validationType: "INVALID",
            explanationStart: "Value 't1' is invalid. A transaction with this ID already exists"
        ),
        Expected(
            rejection: .orderNotFound("o1"),
            status: 404,
            cause: "INVALID_REQUEST",
            field: nil,
            validationType: nil,
            explanationStart: "No order 'o1'"
        ),
        Expected(
            rejection: .orderChanged,
            status: 409,
            cause: "REQUEST_REJECTED",
            field: nil,
            validationType: nil,
            explanationStart: "LOCK_FAILURE"
        ),
        Expected(
            rejection: .amountMissing,
            status: 400,
            cause: "INVALID_REQUEST",
            field: "transaction.amount",
            validationType: "MISSING",
            explanationStart: "Missing parameter 'transaction.amount'"
        ),
        Expected(
            rejection: .currencyMismatch(eur, orderCurrency: usd),
            status: 400,
            cause: "INVALID_REQUEST",
            field: "transaction.currency",
            validationType: "INVALID",
            explanationStart: "Value 'EUR' is invalid. The order's currency is USD"
        ),
        Expected(
            rejection: .exceedsAvailable(.refund, amount: amount("10.00"), available: amount("5.00")),
            status: 400,
            cause: "INVALID_REQUEST",
            field: "transaction.amount",
            validationType: "INVALID",
            explanationStart: "Value '10.00' is invalid. The amount exceeds the 5.00 available to refund"
        ),
        Expected(
            rejection: .nothingToVoid,
            status: 400,
            cause: "INVALID_REQUEST",
            field: "apiOperation",
            validationType: "INVALID",
            explanationStart: "Value 'VOID' is invalid. There is no transaction to void."
        ),
        Expected(
            rejection: .nothingToUpdate(.captured),
            status: 400,
            cause: "INVALID_REQUEST",
            field: "apiOperation",
            validationType: "INVALID",
            explanationStart: "Value 'UPDATE_AUTHORIZATION' is invalid. The order is CAPTURED"
        ),
        Expected(
            rejection: .token(.replayed),
            status: 400,
            cause: "INVALID_REQUEST",
            field: PaymentProcessor.tokenField,
            validationType: "INVALID",
            explanationStart: "Apple Pay token rejected: REPLAYED: "
        ),
        Expected(
            rejection: .token(.library(code: .verificationBusy, reason: "busy")),
            status: 503,
            cause: "SERVER_BUSY",
            field: PaymentProcessor.tokenField,
            validationType: nil,
            explanationStart: "Apple Pay token not verified yet: "
        ),
    ]

    @Test("status, cause, field, validation type and wording", arguments: table)
    func worded(_ expected: Expected) throws {
        let error = expected.rejection.gatewayError
        #expect(Int(expected.rejection.status.code) == expected.status)
        guard case .object(let root) = error.body, case .object(let body)? = root["error"] else {
            Issue.record("not an error body: \(error.body)")
            return
        }
        #expect(root["result"] == .string("ERROR"))
        #expect(body["cause"] == .string(expected.cause))
        #expect(body["field"] == expected.field.map(JSONValue.string))
        #expect(body["validationType"] == expected.validationType.map(JSONValue.string))
        guard case .string(let explanation)? = body["explanation"] else {
            Issue.record("no explanation")
            return
        }
        #expect(explanation.hasPrefix(expected.explanationStart), "\(explanation)")
    }

    @Test("a busy answer says when to retry; an invalid one does not")
    func retryAfter() {
        #expect(PaymentRejection.token(.library(code: .verificationBusy, reason: "busy")).gatewayError.headers[.retryAfter] == "1")
        #expect(PaymentRejection.amountMissing.gatewayError.headers[.retryAfter] == nil)
    }
}
