import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// CAPTURE, VOID and REFUND from the order page: read into the core's ``FollowOnRequest`` and
/// processed by the API's own ``OrderOperationProcessor``, so every rule (amounts available,
/// what may be voided, one transaction at a time per order) is the API's.
extension ConsoleRoutes {
    func act(
        orderId: String,
        action: String,
        form: FormFields,
        session: ConsoleSession,
        context: GatewayRequestContext
    ) async throws -> Response {
        if let decision = Self.riskReviewDecision(action) {
            return try await reviewRisk(orderId: orderId, decision: decision, session: session, context: context)
        }
        let operation: FollowOnRequest.Operation
        switch action {
        case "capture": operation = .capture
        case "refund": operation = .refund
        case "void": operation = .void
        default: return refusal(.invalidField("the action"), session: session)
        }
        let now = services.clock()
        func audit(_ auditAction: AuditEntry.Action, _ detail: String) async throws {
            try await services.store.appendAudit(
                AuditEntry(
                    merchantId: session.merchantId,
                    operatorName: session.operatorName,
                    action: auditAction,
                    detail: detail,
                    address: context.remoteAddress,
                    time: now
                )
            )
        }
        guard session.role.mayActOnOrders else {
            try await audit(.forbidden, "\(operation.rawValue) on order \(orderId)")
            return refusal(.roleForbidden(session.role), session: session)
        }
        guard let merchant = services.merchants[session.merchantId],
            let order = try await services.transactions.order(merchantId: session.merchantId, orderId: orderId)
        else { return refusal(.orderNotFound(orderId), session: session) }
        guard let transactionId = form["transactionId"], transactionId.hasPrefix("ma-"), transactionId.count <= 40 else {
            return refusal(.invalidField("the form's transaction id"), session: session)
        }
        var amount: Amount?
        var target: String?
        switch operation {
        case .capture, .refund:
            guard let currency = Currency(code: order.state.currency), let text = form["amount"],
                let parsed = try? Amount(parsing: text, currency: currency)
            else {
                return try await orderPage(
                    orderId,
                    session,
                    error: ConsoleRejectionOrText(text: ConsoleRejection.invalidField("the amount").wording, status: .badRequest)
                )
            }
            amount = parsed
        case .void:
            guard let named = form["target"] else {
                return refusal(.invalidField("the transaction to void"), session: session)
            }
            target = named
        case .updateAuthorization:
            return refusal(.invalidField("the action"), session: session)
        }
        let request = FollowOnRequest(operation: operation, amount: amount, targetTransactionId: target)
        // The fingerprint covers what the form asked, so the same form posted twice is one
        // transaction answered from the store, and another amount under its id is refused.
        let canonical = Array("console|\(operation.rawValue)|\(amount?.minorUnits ?? 0)|\(target ?? "")".utf8)
        let transaction = TransactionContext(
            merchant: merchant,
            orderId: orderId,
            transactionId: transactionId,
            version: APIVersion.latest,
            fingerprint: services.fingerprinter.fingerprint(canonical: canonical, legacyHashInput: { canonical }),
            encoding: services.encoding
        )
        let detail = "\(operation.rawValue) \(amount.map { "\($0.text) \($0.currency.code) " } ?? "")on order \(orderId) as \(transactionId)"
        do {
            let processed = try await services.orderOperations.process(request, transaction, logger: context.logger)
            let receipt = processed.receipt
            var outcome = receipt.outcome.gatewayCode.rawValue
            if case .replayed = processed { outcome += " (submitted again: answered from the store, nothing done)" }
            try await audit(Self.auditAction(operation), detail + ": \(outcome)")
            return try await orderPage(
                orderId,
                session,
                message: "\(receipt.transactionType.rawValue) \(receipt.transactionId): \(receipt.outcome.gatewayCode.rawValue)"
            )
        } catch let rejection as PaymentRejection {
            try await audit(Self.auditAction(operation), detail + ": refused")
            return try await orderPage(orderId, session, error: ConsoleRejectionOrText(text: rejection.consoleWording, status: .badRequest))
        }
    }

    private static func auditAction(_ operation: FollowOnRequest.Operation) -> AuditEntry.Action {
        switch operation {
        case .capture: .capture
        case .refund: .refund
        case .void, .updateAuthorization: .void
        }
    }
}
