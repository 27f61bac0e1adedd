import Foundation
import GatewayCore
import Hummingbird
import WireJSON

extension GatewayRoutes {
    /// INITIATE_BROWSER_PAYMENT (issue 64): answers where to send the payer (the sandbox PayPal
    /// page, `browserPayment.redirectUrl` and `redirectHtml`) and records nothing yet: the
    /// transaction is recorded, under this request's ids, when the payer decides there.
    func initiateBrowserPayment(
        _ reader: RequestReader,
        shape: FieldShape,
        _ transaction: PaymentProcessor.Context,
        _ request: Request
    ) async throws -> Response {
        let merchant = transaction.merchant
        // After the decision, the identical request gets the decided transaction; another is refused.
        if let stored = try await processor.store.transaction(
            merchantId: merchant.id,
            orderId: transaction.orderId,
            transactionId: transaction.transactionId
        ) {
            return Self.json(.created, bytes: try transaction.retry(stored).responseBody)
        }
        guard let browserPayments, let cipher = sessions.cipher else {
            throw BrowserPaymentError.notSimulated(.initiate)
        }
        var payment = try BrowserPaymentRequest.reading(reader)
        payment.echo = RequestEcho(RequestCatalogue.transactionRequest.echo(of: reader.root, shape: shape))
        if try await processor.store.order(merchantId: merchant.id, orderId: transaction.orderId)?.hasSuccessfulInitialTransaction == true {
            throw PaymentRejection.orderAlreadySucceeded
        }
        let now = browserPayments.now()
        let interaction = BrowserPaymentInteraction(
            merchantId: merchant.id,
            orderId: transaction.orderId,
            transactionId: transaction.transactionId,
            version: transaction.version,
            request: payment,
            requestHash: transaction.fingerprint.value,
            initiatedAt: now
        )
        let redirectURL = Self.browserOrigin(request) + BrowserPaymentRoutes.providerPath + "?interaction=" + (try interaction.sealed(with: cipher))
        return Self.json(.created, BrowserPaymentResponse.initiated(interaction, redirectURL: redirectURL, at: now))
    }
}

/// The INITIATE_BROWSER_PAYMENT response: the transaction as it stands before the payer decides.
enum BrowserPaymentResponse {
    static func initiated(_ interaction: BrowserPaymentInteraction, redirectURL: String, at time: Date) -> JSONValue {
        let payment = interaction.request
        let pending = AcquirerOutcome(gatewayCode: .submitted, authorizedMinorUnits: 0)
        var receipt = TransactionReceipt(
            merchantId: interaction.merchantId,
            orderId: interaction.orderId,
            transactionId: interaction.transactionId,
            version: interaction.version,
            transactionType: payment.operation.transactionType,
            amount: payment.amount,
            transactionSource: payment.transactionSource,
            transactionReference: payment.transactionReference,
            targetTransactionId: nil,
            card: CardDetails(maskedNumber: "", brand: CardBrand(name: "UNKNOWN"), expiry: nil, nameOnCard: nil),
            outcome: pending,
            order: OrderLedger.orderAfterInitial(
                pending,
                operation: payment.operation,
                amount: payment.amount,
                walletProvider: nil,
                reference: payment.orderReference,
                createdAt: time
            ),
            time: time,
            echo: payment.echo
        )
        receipt.browserPayment = payment.type
        let browserPayment = JSONValue.object([
            "redirectUrl": .string(redirectURL),
            "redirectHtml": .string(BrowserPaymentPage.redirectHTML(redirectURL)),
            "interaction": .object(["status": .string("INITIATED"), "timeInitiated": .string(Timestamp.string(time))]),
        ])
        // [ours] The transaction is SUBMITTED (the order INITIATED) until the payer decides; the
        // request succeeded, as the test merchant server's sample response says.
        return TransactionResponse(receipt).jsonValue.overlaid(
            with: .object(["result": .string("SUCCESS"), "browserPayment": browserPayment])
        )
    }
}
