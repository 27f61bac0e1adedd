import Foundation
import Testing

@testable import GatewayCore

/// The payment and follow-on processors on a real SQLite store, without HTTP.
@Suite("Processors")
struct ProcessorTests {
    @Test("authorize, capture in parts, refund, void the refund: each answer and the order as stored")
    func lifecycle() async throws {
        let processors = try Processors.sqlite()
        #expect(try await processors.pay(.authorize, cents: 10_000, order: "o") == "AUTHORIZATION APPROVED AUTHORIZED")
        #expect(try await processors.followOn(Ledger.capture(4_000), order: "o", transaction: "c1") == "CAPTURE APPROVED PARTIALLY_CAPTURED")
        #expect(try await processors.followOn(Ledger.capture(6_000), order: "o", transaction: "c2") == "CAPTURE APPROVED CAPTURED")
        #expect(try await processors.followOn(Ledger.refund(2_500), order: "o", transaction: "r1") == "REFUND APPROVED PARTIALLY_REFUNDED")
        #expect(try await processors.followOn(Ledger.void("r1"), order: "o", transaction: "v1") == "VOID_REFUND APPROVED CAPTURED")

        let order = try #require(try await processors.store.order(merchantId: "M", orderId: "o"))
        #expect(order.state.totals == OrderLedger.Totals(authorized: 10_000, captured: 10_000, refunded: 0))
        #expect(order.version == 5)
        let transactions = try await processors.store.transactions(merchantId: "M", orderId: "o")
        #expect(transactions.map(\.type) == [.authorization, .capture, .capture, .refund, .voidRefund])
        #expect(transactions.map(\.voided) == [false, false, false, true, false])
        #expect(processors.observer.recorded.withLock { $0 }.count == 5)
    }

    @Test("a declined capture is stored and answered, and moves nothing")
    func declinedCapture() async throws {
        let processors = try Processors.sqlite()
        _ = try await processors.pay(.authorize, cents: 10_000, order: "d")
        #expect(try await processors.followOn(Ledger.capture(5_757), order: "d", transaction: "c") == "CAPTURE DECLINED AUTHORIZED")
        let order = try #require(try await processors.store.order(merchantId: "M", orderId: "d"))
        #expect(order.state.totals == OrderLedger.Totals(authorized: 10_000, captured: 0, refunded: 0))
        #expect(try await processors.store.transactions(merchantId: "M", orderId: "d").map(\.succeeded) == [true, false])
    }

    @Test("the processors say which answer is new: a recorded transaction, or a retry's stored one")
    func recordedOrReplayed() async throws {
        let processors = try Processors.sqlite()
        let context = Processors.context(order: "p", transaction: "initial")
        let first = try await processors.payments.process(Processors.card(.pay, cents: 1_000), context, logger: .init(label: "test"))
        guard case .recorded(let record) = first else {
            Issue.record("a new transaction was not recorded: \(first)")
            return
        }
        #expect(record.succeeded && first.recordedSuccess)
        let retry = try await processors.payments.process(Processors.card(.pay, cents: 1_000), context, logger: .init(label: "test"))
        guard case .replayed(let receipt, let body) = retry else {
            Issue.record("a retry was not replayed: \(retry)")
            return
        }
        #expect(body == record.response.bytes)
        #expect(receipt == record.receipt)
        // A retry moved nothing this time, whatever the first answer said.
        #expect(!retry.recordedSuccess)

        let declined = try await processors.pay(.pay, cents: 5_757, order: "q")
        #expect(declined == "PAYMENT DECLINED FAILED")
        let again = try await processors.payments.process(
            Processors.card(.pay, cents: 5_757),
            Processors.context(order: "q", transaction: "initial"),
            logger: .init(label: "test")
        )
        #expect(!again.recordedSuccess)
    }

    @Test("an API version is read once from the path: digits only, no sign or leading zero, 39 to 100")
    func apiVersions() {
        #expect(APIVersion("39")?.number == 39)
        #expect(APIVersion("100") == .latest)
        for text in ["38", "101", "050", "+50", "5 0", "", "fifty", "99999999999999999999"] {
            #expect(APIVersion(text) == nil, "\(text)")
        }
        #expect(APIVersion("49")! < APIVersion("50")!)
        #expect(APIVersion("61")!.description == "61")
    }

    @Test("one operation type: each MPGS spelling names the processor that takes it")
    func operations() {
        #expect(
            APIOperation.allCases.map(\.rawValue) == [
                "AUTHORIZE", "PAY", "VERIFY", "CAPTURE", "REFUND", "VOID", "UPDATE_AUTHORIZATION", "INITIATE_AUTHENTICATION",
                "AUTHENTICATE_PAYER", "INITIATE_BROWSER_PAYMENT", "CONFIRM_BROWSER_PAYMENT",
                "UPDATE_BROWSER_PAYMENT",
            ]
        )
        #expect(APIOperation(rawValue: "INITIATE_BROWSER_PAYMENT") == .browserPayment(.initiate))
        #expect(APIOperation(rawValue: "CONFIRM_BROWSER_PAYMENT") == .browserPayment(.confirm))
        for operation in APIOperation.allCases { #expect(APIOperation(rawValue: operation.rawValue) == operation) }
        #expect(APIOperation(rawValue: "PAY") == .initial(.pay))
        #expect(APIOperation(rawValue: "VOID") == .followOn(.void))
        #expect(APIOperation(rawValue: "AUTHENTICATE_PAYER") == .authentication(.authenticatePayer))
        #expect(APIOperation(rawValue: "pay") == nil)
        #expect(APIOperation(rawValue: "UPDATE_AUTHORIZATION") == .followOn(.updateAuthorization))
        #expect(APIOperation(rawValue: "update_authorization") == nil)
        #expect(APIOperation(rawValue: "REFUND_REQUEST") == nil)
    }

    @Test("an identical retry gets the stored answer; the same id with other details is refused")
    func retries() async throws {
        let processors = try Processors.sqlite()
        let first = try await processors.pay(.pay, cents: 1_000, order: "r")
        #expect(try await processors.pay(.pay, cents: 1_000, order: "r") == first)
        await #expect(throws: PaymentRejection.transactionIdReused("initial")) {
            try await processors.payments.process(
                Processors.card(.pay, cents: 1_000),
                Processors.context(order: "r", transaction: "initial", hash: "other"),
                logger: .init(label: "test")
            )
        }
    }

    @Test("a second successful AUTHORIZE or PAY on an order is refused; one after a decline is not")
    func oneSuccessfulInitial() async throws {
        let processors = try Processors.sqlite()
        #expect(try await processors.pay(.authorize, cents: 5_757, order: "i", transaction: "1") == "AUTHORIZATION DECLINED FAILED")
        #expect(try await processors.pay(.authorize, cents: 5_000, order: "i", transaction: "2") == "AUTHORIZATION APPROVED AUTHORIZED")
        await #expect(throws: PaymentRejection.orderAlreadySucceeded) {
            try await processors.pay(.pay, cents: 5_000, order: "i", transaction: "3")
        }
    }

    @Test("follow-ons on an order that does not exist are refused")
    func unknownOrder() async throws {
        let processors = try Processors.sqlite()
        await #expect(throws: PaymentRejection.orderNotFound("nowhere")) {
            try await processors.followOn(Ledger.capture(1), order: "nowhere", transaction: "c")
        }
    }

    @Test("a partial approval authorizes half, and only that half can be captured")
    func partialApproval() async throws {
        let processors = try Processors.sqlite()
        #expect(try await processors.pay(.authorize, cents: 6_161, order: "p") == "AUTHORIZATION PARTIALLY_APPROVED AUTHORIZED")
        await #expect(throws: PaymentRejection.exceedsAvailable(.capture, amount: Ledger.dollars(3_081), available: Ledger.dollars(3_080))) {
            try await processors.followOn(Ledger.capture(3_081), order: "p", transaction: "c")
        }
        #expect(try await processors.followOn(Ledger.capture(3_080), order: "p", transaction: "c2") == "CAPTURE APPROVED CAPTURED")
    }
}
