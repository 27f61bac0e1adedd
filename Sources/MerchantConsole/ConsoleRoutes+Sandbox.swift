import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// The sandbox page (sandbox mode only): a test payment with a minted Apple Pay or Google Pay token.
extension ConsoleRoutes {
    func registerSandbox(on router: Router<GatewayRequestContext>) {
        guard let sandbox = services.sandbox else { return }
        router.get("/ma/sandbox") { request, context in
            await withSession(request, context, form: false) { session, _ in sandboxPage(session) }
        }
        router.post("/ma/sandbox") { request, context in
            await withSession(request, context, form: true) { session, form in
                guard session.role.mayActOnOrders else {
                    try await audit(session, context, .forbidden, AuditEntry.Action.sandboxPayment.rawValue)
                    return refusal(.roleForbidden(session.role), session: session)
                }
                guard let merchant = services.merchants[session.merchantId] else {
                    return refusal(.invalidField("the merchant"), session: session)
                }
                guard let operation = form["operation"].flatMap(PaymentRequest.Operation.init(rawValue:)), operation != .verify else {
                    let wording = ConsoleRejection.invalidField("Operation").wording
                    try await audit(session, context, .sandboxPayment, "refused: \(wording)")
                    return sandboxPage(session, error: wording, status: .badRequest)
                }
                guard let wallet = WalletProvider(rawValue: form["wallet"] ?? WalletProvider.applePay.rawValue) else {
                    let wording = ConsoleRejection.invalidField("Wallet").wording
                    try await audit(session, context, .sandboxPayment, "refused: \(wording)")
                    return sandboxPage(session, error: wording, status: .badRequest)
                }
                let orderId = "sandbox-" + ConsoleSession.randomToken().prefix(16)
                let result = await sandbox.pay(
                    merchant: merchant,
                    operation: operation,
                    wallet: wallet,
                    amount: form["amount"] ?? "",
                    currency: form["currency"] ?? "",
                    orderId: orderId,
                    transactionId: "1",
                    logger: context.logger
                )
                switch result {
                case .success(let receipt):
                    try await audit(
                        session,
                        context,
                        .sandboxPayment,
                        "\(wallet.displayName) \(operation.rawValue) \(receipt.amount.text) \(receipt.amount.currency.code) on order \(orderId): "
                            + receipt.outcome.gatewayCode.rawValue
                    )
                    return sandboxPage(
                        session,
                        message: "\(operation.rawValue) \(receipt.amount.text) \(receipt.amount.currency.code): "
                            + "\(receipt.outcome.result.rawValue), \(receipt.outcome.gatewayCode.rawValue)",
                        orderId: orderId
                    )
                case .failure(let failure):
                    // What the operator asked, as typed (short, and masked: the log keeps no card
                    // number whatever was typed), and why the gateway refused it.
                    let typed = "\(form["amount"]?.prefix(32) ?? "") \(form["currency"]?.prefix(8) ?? "")"
                    let asked = "\(wallet.displayName) \(operation.rawValue) " + CardNumberRedaction.mask(typed)
                    try await audit(session, context, .sandboxPayment, "\(asked) refused: \(failure.reason)")
                    return sandboxPage(session, error: failure.reason, status: .badRequest)
                }
            }
        }
    }

    func sandboxPage(
        _ session: ConsoleSession,
        message: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok,
        orderId: String? = nil
    ) -> Response {
        var values = frame(session, title: "Sandbox payment")
        values["csrf"] = session.csrfToken
        if let message { values["message"] = message }
        if let error { values["error"] = error }
        if let orderId {
            values["orderId"] = orderId
            values["orderLink"] = ConsoleFormat.pathSegment(orderId)
        }
        return pages.render("sandbox", values, status: status)
    }
}
