import Foundation
import GatewayCore
import Testing

/// Every rule of the order ledger, without HTTP or a store.
@Suite("Order ledger")
struct OrderLedgerTests {
    typealias Totals = OrderLedger.Totals

    @Test(
        "the status follows from the totals",
        arguments: [
            (Totals(authorized: 100, captured: 0, refunded: 0), OrderStatus.authorized),
            (Totals(authorized: 100, captured: 40, refunded: 0), .partiallyCaptured),
            (Totals(authorized: 100, captured: 100, refunded: 0), .captured),
            (Totals(authorized: 100, captured: 100, refunded: 30), .partiallyRefunded),
            (Totals(authorized: 100, captured: 100, refunded: 100), .refunded),
            (Totals(authorized: 100, captured: 40, refunded: 40), .refunded),
            (Totals(authorized: 0, captured: 0, refunded: 0), .cancelled),
        ]
    )
    func statusFromTotals(totals: Totals, status: OrderStatus) {
        #expect(OrderLedger.status(totals) == status)
    }

    @Test(
        "an initial transaction opens the order: approvals move money, a decline moves none",
        arguments: [
            (PaymentRequest.Operation.authorize, GatewayCode.approved, OrderStatus.authorized, Int64(5000), Int64(0)),
            (.pay, .approved, .captured, 5000, 5000),
            (.authorize, .partiallyApproved, .authorized, 2500, 0),
            (.pay, .partiallyApproved, .captured, 2500, 2500),
            (.verify, .approved, .verified, 5000, 0),
            (.authorize, .declined, .failed, 0, 0),
            (.pay, .timedOut, .failed, 0, 0),
            (.pay, .unknown, .failed, 0, 0),
        ]
    )
    func initial(operation: PaymentRequest.Operation, code: GatewayCode, status: OrderStatus, authorized: Int64, captured: Int64) {
        let request = PaymentRequest(
            operation: operation,
            amount: Ledger.dollars(5000),
            walletProvider: nil,
            orderReference: "ref",
            transactionReference: nil,
            transactionSource: "INTERNET",
            source: .card(.init(number: "5123450000000008", expiry: CardExpiry(month: 1, year: 39), securityCode: nil, nameOnCard: nil))
        )
        let authorizedByAcquirer: Int64 = code == .partiallyApproved ? 2500 : code == .approved ? 5000 : 0
        let outcome = AcquirerOutcome(gatewayCode: code, authorizedMinorUnits: authorizedByAcquirer)
        let order = OrderLedger.orderAfterInitial(outcome, request: request, createdAt: Date(milliseconds: 0))
        #expect(order.status == status)
        #expect(order.totalAuthorizedMinorUnits == authorized)
        #expect(order.totalCapturedMinorUnits == captured)
        #expect(order.totalRefundedMinorUnits == 0)
        #expect(order.reference == "ref")
    }

    @Test("a capture takes at most what is authorized and not yet captured")
    func captureLimits() throws {
        let order = Ledger.order(.partiallyCaptured, authorized: 100, captured: 60)
        let plan = try OrderLedger.plan(Ledger.capture(40), order: order, transactions: [])
        #expect(plan.type == .capture)
        #expect(plan.totalsIfApproved == Totals(authorized: 100, captured: 100, refunded: 0))
        #expect(OrderLedger.status(plan.totalsIfApproved) == .captured)
        #expect(throws: PaymentRejection.exceedsAvailable(.capture, amount: Ledger.dollars(41), available: Ledger.dollars(40))) {
            try OrderLedger.plan(Ledger.capture(41), order: order, transactions: [])
        }
    }

    @Test(
        "only an authorized or partially captured order can be captured",
        arguments: [OrderStatus.captured, .refunded, .partiallyRefunded, .cancelled, .verified, .failed]
    )
    func captureNeedsAuthorization(status: OrderStatus) {
        let order = Ledger.order(status, authorized: 100, captured: 0)
        #expect(throws: PaymentRejection.nothingToCapture) {
            try OrderLedger.plan(Ledger.capture(10), order: order, transactions: [])
        }
    }

    @Test("a capture or refund must be in the order's currency and name an amount")
    func currencyAndAmount() {
        let order = Ledger.order(.authorized, authorized: 100)
        #expect(throws: PaymentRejection.currencyMismatch(Ledger.eur, orderCurrency: Ledger.usd)) {
            try OrderLedger.plan(Ledger.capture(10, Ledger.eur), order: order, transactions: [])
        }
        #expect(throws: PaymentRejection.amountMissing) {
            try OrderLedger.plan(FollowOnRequest(operation: .refund, amount: nil, targetTransactionId: nil), order: order, transactions: [])
        }
    }

    @Test("a refund needs captured money, at most what is captured and not yet refunded")
    func refundLimits() throws {
        #expect(throws: PaymentRejection.nothingCaptured) {
            try OrderLedger.plan(Ledger.refund(1), order: Ledger.order(.authorized, authorized: 100), transactions: [])
        }
        let order = Ledger.order(.partiallyRefunded, authorized: 100, captured: 80, refunded: 30)
        let plan = try OrderLedger.plan(Ledger.refund(50), order: order, transactions: [])
        #expect(plan.totalsIfApproved == Totals(authorized: 100, captured: 80, refunded: 80))
        #expect(OrderLedger.status(plan.totalsIfApproved) == .refunded)
        #expect(throws: PaymentRejection.exceedsAvailable(.refund, amount: Ledger.dollars(51), available: Ledger.dollars(50))) {
            try OrderLedger.plan(Ledger.refund(51), order: order, transactions: [])
        }
    }

    @Test("a refund's target must be a successful, unvoided capture or payment on the order")
    func refundTarget() throws {
        let order = Ledger.order(.captured, authorized: 100, captured: 100)
        let transactions = [
            Ledger.transaction("auth", .authorization, 100),
            Ledger.transaction("capture", .capture, 60),
            Ledger.transaction("declined", .capture, 40, succeeded: false),
            Ledger.transaction("voided", .capture, 40, voided: true),
        ]
        #expect(try OrderLedger.plan(Ledger.refund(10, target: "capture"), order: order, transactions: transactions).targetTransactionId == "capture")
        for target in ["auth", "declined", "voided", "nowhere"] {
            #expect(throws: PaymentRejection.refundTargetNotFound(target)) {
                try OrderLedger.plan(Ledger.refund(10, target: target), order: order, transactions: transactions)
            }
        }
    }

    @Test("voiding an authorization cancels the order, unless something was captured against it")
    func voidAuthorization() throws {
        let transactions = [Ledger.transaction("auth", .authorization, 100)]
        let plan = try OrderLedger.plan(Ledger.void("auth"), order: Ledger.order(.authorized, authorized: 100), transactions: transactions)
        #expect(plan.type == .voidAuthorization)
        #expect(plan.voidsTarget)
        #expect(plan.amount == Ledger.dollars(100))
        #expect(OrderLedger.status(plan.totalsIfApproved) == .cancelled)
        #expect(throws: PaymentRejection.nothingToVoid) {
            try OrderLedger.plan(
                Ledger.void("auth"),
                order: Ledger.order(.partiallyCaptured, authorized: 100, captured: 10),
                transactions: transactions
            )
        }
    }

    @Test("voiding a capture, a payment or a refund undoes exactly its amount")
    func voidMoney() throws {
        let order = Ledger.order(.partiallyRefunded, authorized: 100, captured: 100, refunded: 30)
        let transactions = [
            Ledger.transaction("auth", .authorization, 100),
            Ledger.transaction("c1", .capture, 60),
            Ledger.transaction("c2", .capture, 40),
            Ledger.transaction("r1", .refund, 30),
        ]
        let refundVoid = try OrderLedger.plan(Ledger.void("r1"), order: order, transactions: transactions)
        #expect(refundVoid.type == .voidRefund)
        #expect(refundVoid.totalsIfApproved == Totals(authorized: 100, captured: 100, refunded: 0))
        let captureVoid = try OrderLedger.plan(Ledger.void("c2"), order: order, transactions: transactions)
        #expect(captureVoid.type == .voidCapture)
        #expect(captureVoid.totalsIfApproved == Totals(authorized: 100, captured: 60, refunded: 30))
        // Voiding c1 leaves 40 captured, still no less than the 30 refunded.
        #expect(try OrderLedger.plan(Ledger.void("c1"), order: order, transactions: transactions).totalsIfApproved.captured == 40)

        let refundedMore = Ledger.order(.partiallyRefunded, authorized: 100, captured: 100, refunded: 70)
        #expect(throws: PaymentRejection.nothingToVoid) {
            try OrderLedger.plan(Ledger.void("c1"), order: refundedMore, transactions: transactions)
        }

        let paid = Ledger.order(.captured, authorized: 50, captured: 50)
        let payment = [Ledger.transaction("pay", .payment, 50)]
        let paymentVoid = try OrderLedger.plan(Ledger.void("pay"), order: paid, transactions: payment)
        #expect(paymentVoid.type == .voidPayment)
        #expect(paymentVoid.totalsIfApproved == Totals(authorized: 0, captured: 0, refunded: 0))
        #expect(throws: PaymentRejection.nothingToVoid) {
            try OrderLedger.plan(
                Ledger.void("pay"),
                order: Ledger.order(.partiallyRefunded, authorized: 50, captured: 50, refunded: 10),
                transactions: payment
            )
        }
    }

    @Test("voiding a partially approved payment undoes what was approved, not what was asked")
    func voidPartialPayment() throws {
        let order = Ledger.order(.captured, authorized: 3_080, captured: 3_080)
        let plan = try OrderLedger.plan(Ledger.void("pay"), order: order, transactions: [Ledger.transaction("pay", .payment, 6_161)])
        #expect(plan.totalsIfApproved == Totals(authorized: 0, captured: 0, refunded: 0))
        #expect(OrderLedger.status(plan.totalsIfApproved) == .cancelled)
    }

    @Test("nothing is voided twice, and nothing that failed or does not exist")
    func voidRefusals() {
        let order = Ledger.order(.captured, authorized: 100, captured: 100)
        let transactions = [
            Ledger.transaction("auth", .authorization, 100),
            Ledger.transaction("voided", .capture, 100, voided: true),
            Ledger.transaction("declined", .capture, 100, succeeded: false),
            Ledger.transaction("verify", .verification, 0),
            Ledger.transaction("void", .voidCapture, 100),
        ]
        for target in ["voided", "declined", "verify", "void", "nowhere", nil] as [String?] {
            #expect(throws: PaymentRejection.nothingToVoid) {
                try OrderLedger.plan(Ledger.void(target), order: order, transactions: transactions)
            }
        }
    }

    @Test("a declined follow-on leaves the order exactly as it was")
    func declinedFollowOn() throws {
        let order = Ledger.order(.authorized, authorized: 100)
        let plan = try OrderLedger.plan(Ledger.capture(100), order: order, transactions: [])
        #expect(OrderLedger.orderAfterFollowOn(plan, Ledger.declined, order: order) == order)
        let approved = OrderLedger.orderAfterFollowOn(plan, Ledger.approved, order: order)
        #expect(approved.status == .captured)
        #expect(approved.totalCapturedMinorUnits == 100)
    }

    @Test("every gateway code has the result MPGS gives it")
    func results() {
        let successes = GatewayCode.allCases.filter { $0.result == .success }
        #expect(Set(successes) == [.approved, .approvedAuto, .approvedPendingSettlement, .partiallyApproved])
        #expect(GatewayCode.pending.result == .pending)
        #expect(GatewayCode.unknown.result == .unknown)
        #expect(GatewayCode.declined.result == .failure)
    }
}
