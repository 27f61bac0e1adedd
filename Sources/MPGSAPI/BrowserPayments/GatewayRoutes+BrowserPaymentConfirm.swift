import GatewayCore
import Hummingbird
import Logging

extension GatewayRoutes {
    /// CONFIRM_BROWSER_PAYMENT (issue 64): completes, under its own transaction id, the
    /// CONFIRM_AT_MERCHANT payment the payer approved at the sandbox PayPal page.
    func confirmBrowserPayment(
        _ reader: RequestReader,
        shape: FieldShape,
        _ transaction: PaymentProcessor.Context,
        logger: Logger
    ) async throws -> Response {
        guard let browserPayments else { throw BrowserPaymentError.notSimulated(.confirm) }
        var confirmation = try BrowserPaymentConfirmRequest.reading(reader)
        confirmation.echo = RequestEcho(RequestCatalogue.transactionRequest.echo(of: reader.root, shape: shape))
        do {
            let processed = try await browserPayments.confirm(confirmation, transaction, logger: logger)
            return Self.json(.created, bytes: processed.responseBody)
        } catch let refusal as BrowserPaymentConfirmRefusal {
            throw BrowserPaymentError.confirm(refusal)
        }
    }

    /// UPDATE_BROWSER_PAYMENT (issue 64): the browser payment under the initiate's ids as it
    /// stands; changes nothing.
    func updateBrowserPayment(_ reader: RequestReader, shape: FieldShape, _ transaction: PaymentProcessor.Context) async throws -> Response {
        guard let browserPayments else { throw BrowserPaymentError.notSimulated(.update) }
        let echo = RequestEcho(RequestCatalogue.transactionRequest.echo(of: reader.root, shape: shape))
        do {
            return Self.json(.created, bytes: try await browserPayments.update(echo, transaction).responseBody)
        } catch let refusal as BrowserPaymentConfirmRefusal {
            throw BrowserPaymentError.confirm(refusal)
        }
    }
}
