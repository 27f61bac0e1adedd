import Foundation
import GatewayCore
import Hummingbird

/// The order search and the order page.
extension ConsoleRoutes {
    func orders(_ request: Request, _ session: ConsoleSession) async throws -> Response {
        let form = FormFields(request.uri.query.map { Substring($0) } ?? "") ?? FormFields("")!
        var values = frame(session, title: "Orders")
        let query: OrderQuery
        do {
            query = try OrderQuery(form: form, merchantId: session.merchantId)
        } catch {
            values["error"] = error.wording
            values["statuses"] = statusOptions(nil)
            return pages.render("orders", values, status: error.status)
        }
        let found = try await services.store.searchOrders(query)
        let page = query.offset / query.limit + 1
        values["page"] = page
        values["statuses"] = statusOptions(query.status)
        values["query"] = [
            "orderId": form["orderId"] ?? "", "from": form["from"] ?? "", "to": form["to"] ?? "",
            "minAmount": form["minAmount"] ?? "", "maxAmount": form["maxAmount"] ?? "", "last4": form["last4"] ?? "",
            "applePay": query.walletProvider == "APPLE_PAY",
        ]
        values["orders"] = found.orders.map { listing -> [String: Any] in
            let state = listing.state
            return [
                "orderId": listing.orderId, "link": ConsoleFormat.pathSegment(listing.orderId),
                "created": ConsoleFormat.time(state.creationTime), "status": state.status.rawValue,
                "amount": ConsoleFormat.amount(state.amountMinorUnits, state.currency),
                "captured": ConsoleFormat.amount(state.totalCapturedMinorUnits, state.currency),
                "refunded": ConsoleFormat.amount(state.totalRefundedMinorUnits, state.currency),
                "wallet": state.walletProvider ?? "",
            ]
        }
        if page > 1 { values["previous"] = pageLink(form, page: page - 1) }
        if found.hasMore { values["next"] = pageLink(form, page: page + 1) }
        return pages.render("orders", values)
    }

    private func statusOptions(_ selected: OrderStatus?) -> [[String: Any]] {
        OrderStatus.allCases.map { ["value": $0.rawValue, "selected": $0 == selected] }
    }

    /// The same search on another page.
    private func pageLink(_ form: FormFields, page: Int) -> String {
        var items = ["orderId", "from", "to", "status", "minAmount", "maxAmount", "last4", "wallet"].compactMap { name in
            form[name].map { URLQueryItem(name: name, value: $0) }
        }
        items.append(URLQueryItem(name: "page", value: String(page)))
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery ?? "page=\(page)"
    }

    func orderPage(
        _ orderId: String,
        _ session: ConsoleSession,
        message: String? = nil,
        error: ConsoleRejectionOrText? = nil
    )
        async throws -> Response
    {
        // Only the operator's merchant is ever asked: another merchant's order id is not found.
        guard let order = try await services.transactions.order(merchantId: session.merchantId, orderId: orderId) else {
            return refusal(.orderNotFound(orderId), session: session)
        }
        let summaries = try await services.transactions.transactions(merchantId: session.merchantId, orderId: orderId)
        var transactions: [[String: Any]] = []
        for summary in summaries {
            let stored = try await services.transactions.transaction(
                merchantId: session.merchantId,
                orderId: orderId,
                transactionId: summary.transactionId
            )
            transactions.append(transactionValues(summary, response: stored.map { $0.responseBody(in: services.encoding) }))
        }
        let state = order.state
        var values = frame(session, title: "Order \(orderId)")
        values["link"] = ConsoleFormat.pathSegment(orderId)
        values["csrf"] = session.csrfToken
        values["admin"] = session.role.mayActOnOrders
        // Made now, so a form submitted twice names one transaction and its retry is answered
        // from the store instead of capturing or refunding twice.
        values["captureId"] = "ma-" + ConsoleSession.randomToken().prefix(20)
        values["refundId"] = "ma-" + ConsoleSession.randomToken().prefix(20)
        values["voidId"] = "ma-" + ConsoleSession.randomToken().prefix(20)
        values["order"] = [
            "status": state.status.rawValue, "currency": state.currency,
            "amount": ConsoleFormat.amount(state.amountMinorUnits, state.currency),
            "authorized": ConsoleFormat.amount(state.totalAuthorizedMinorUnits, state.currency),
            "captured": ConsoleFormat.amount(state.totalCapturedMinorUnits, state.currency),
            "refunded": ConsoleFormat.amount(state.totalRefundedMinorUnits, state.currency),
            "wallet": state.walletProvider ?? "none", "created": ConsoleFormat.time(state.creationTime),
        ]
        values["transactions"] = transactions
        // The order's risk verdict is its payment's; the review form shows while one is pending.
        if let risk = summaries.last(where: { $0.receipt.risk != nil })?.receipt.risk {
            var riskValues = Self.riskValues(risk)
            riskValues["reviewable"] = risk.awaitsReview && session.role.mayActOnOrders && services.riskReviews != nil
            values["risk"] = riskValues
        }
        if let message { values["message"] = message }
        var status: HTTPResponse.Status = .ok
        if let error {
            values["error"] = error.text
            status = error.status
        }
        return pages.render("order", values, status: status)
    }

    private func transactionValues(_ summary: TransactionSummary, response: [UInt8]?) -> [String: Any] {
        let receipt = summary.receipt
        let outcome = receipt.outcome
        var values: [String: Any] = [
            "id": receipt.transactionId, "type": receipt.transactionType.rawValue,
            "amount": ConsoleFormat.amount(receipt.amount.minorUnits, receipt.amount.currency.code),
            "voided": summary.voided, "result": outcome.result.rawValue, "gatewayCode": outcome.gatewayCode.rawValue,
            "acquirerCode": outcome.acquirerCode ?? "", "acquirerMessage": outcome.acquirerMessage ?? "",
            "authorizationCode": outcome.authorizationCode ?? "", "receipt": outcome.receipt ?? "",
            "card": "\(receipt.card.maskedNumber) (\(receipt.card.brand.brand))", "source": receipt.transactionSource,
            "time": ConsoleFormat.time(receipt.time),
            // Stored as returned to the merchant: card numbers masked, no cryptogram or code.
            "response": response.map { String(decoding: $0, as: UTF8.self) } ?? "",
        ]
        if let device = receipt.card.device { values["device"] = deviceValues(device) }
        if let authentication = receipt.authentication { values["authentication"] = authenticationValues(authentication) }
        if let risk = receipt.risk { values["transactionRisk"] = Self.riskValues(risk) }
        // Issue 64: no card paid, the provider did; the payer's interaction as the echo keeps it.
        if let provider = receipt.browserPayment {
            let interaction = receipt.echo.json["browserPayment"]?["interaction"]
            values["card"] = "none"
            var browserPayment: [String: Any] = [
                "provider": provider.rawValue, "status": interaction?["status"]?.stringValue ?? "",
                "returned": interaction?["timeReturned"]?.stringValue ?? "",
            ]
            // CONFIRM_AT_MERCHANT: why a payment the payer approved is still pending. Absent, not
            // empty, for the others (an empty string is a true section in the template).
            switch receipt.merchantConfirmation {
            case .awaiting?: browserPayment["confirmation"] = "awaiting CONFIRM_BROWSER_PAYMENT from the merchant"
            case .confirmed?: browserPayment["confirmation"] = "confirmed by the merchant"
            case nil: break
            }
            values["browserPayment"] = browserPayment
        }
        // Issue 64: the series the payment belongs to, as its request sent it.
        let agreement = receipt.echo.json["agreement"]
        let referenceOrderId = receipt.echo.json["referenceOrderId"]?.stringValue
        if agreement != nil || referenceOrderId != nil || receipt.storedOnFile != nil {
            var series: [String: Any] = [
                "id": agreement?["id"]?.stringValue ?? "", "type": agreement?["type"]?.stringValue ?? "",
                "storedOnFile": receipt.storedOnFile?.rawValue ?? "NOT_STORED",
            ]
            // Absent, not empty: an empty string is a true section in the template.
            if let referenceOrderId { series["referenceOrderId"] = referenceOrderId }
            values["agreement"] = series
        }
        values["request"] = requestValues(ReadRequest(receipt))
        return values
    }

    private func deviceValues(_ device: CardDetails.Device) -> [String: Any] {
        [
            "number": device.maskedNumber, "expiry": String(format: "%02d/%02d", device.expiry.month, device.expiry.year),
            "format": device.cryptogramFormat.rawValue,
        ]
    }

    /// The 3-D Secure result the payment carried, as the receipt keeps it.
    private func authenticationValues(_ authentication: PaymentAuthentication) -> [String: Any] {
        // 3-D Secure 1 (a payment's `3DSecureId`) in its own words: the id, the PaRes status, the XID.
        let threeDS1 = authentication.version == ThreeDS1Authentication.paymentVersion
        return [
            "idLabel": threeDS1 ? "3DSecureId" : "Authentication transaction",
            "statusLabel": threeDS1 ? "PaRes status" : "transStatus",
            "transactionIdLabel": threeDS1 ? "XID" : "3DS transaction id",
            "transactionId": authentication.transactionId, "status": authentication.status.rawValue,
            "version": authentication.version, "eci": authentication.acsEci ?? "",
            "transStatus": authentication.transactionStatus?.rawValue ?? "",
            "protocolVersion": authentication.protocolVersion ?? "",
            "threeDSTransactionId": authentication.threeDSTransactionId ?? "",
            "dsTransactionId": authentication.dsTransactionId ?? "",
        ]
    }

    /// Keys unlike the transaction's own: a section missing here would find the transaction's
    /// value of the same name (a VOID would show its target's amount as requested).
    private func requestValues(_ request: ReadRequest) -> [String: Any] {
        let card = request.card
        var values: [String: Any] = [
            "operation": request.operation.rawValue, "requestSource": request.source,
            "requestCard": "\(card.maskedNumber) (\(card.brand.brand))",
        ]
        if let amount = request.amount { values["requestAmount"] = "\(amount.text) \(amount.currency.code)" }
        if let expiry = card.expiry { values["cardExpiry"] = String(format: "%02d/%02d", expiry.month, expiry.year) }
        if let name = card.nameOnCard { values["nameOnCard"] = name }
        if let device = card.device { values["requestDevice"] = deviceValues(device) }
        if let target = request.targetTransactionId { values["target"] = target }
        if let reference = request.reference { values["reference"] = reference }
        if let authentication = request.authenticationTransactionId { values["authenticationId"] = authentication }
        if let fields = request.echoedFields { values["fields"] = fields }
        return values
    }

    func audit(_ session: ConsoleSession) async throws -> Response {
        let entries = try await services.store.auditEntries(merchantId: session.merchantId, limit: 200)
        var values = frame(session, title: "Audit log")
        values["entries"] = entries.map { entry -> [String: Any] in
            [
                "time": ConsoleFormat.time(entry.time), "operator": entry.operatorName, "action": entry.action.rawValue,
                "detail": entry.detail, "address": entry.address,
            ]
        }
        return pages.render("audit", values)
    }
}

/// An error shown on the order page: a console refusal or a payment rule's.
struct ConsoleRejectionOrText {
    var text: String
    var status: HTTPResponse.Status
}
