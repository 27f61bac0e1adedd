import Foundation
import GatewayCore
import Logging
import MPGSAPI
import MerchantConsole

/// The console's sandbox page over the MPGS front end's sandbox payment (the console never
/// imports MPGSAPI; the server, which assembles both, connects them).
struct ConsoleSandboxPayments: SandboxPaymentRunning {
    let payment: SandboxConsolePayment

    func pay(
        merchant: Merchant,
        operation: PaymentRequest.Operation,
        wallet: WalletProvider,
        amount: String,
        currency: String,
        orderId: String,
        transactionId: String,
        logger: Logger
    ) async -> Result<TransactionReceipt, ConsoleStepFailure> {
        do {
            let receipt = try await payment.run(
                merchant: merchant,
                operation: operation,
                wallet: wallet,
                amount: amount,
                currency: currency,
                orderId: orderId,
                transactionId: transactionId,
                logger: logger
            )
            return .success(receipt)
        } catch let refusal as SandboxConsolePayment.Refusal {
            return .failure(ConsoleStepFailure(refusal.explanation))
        } catch {
            logger.error("sandbox payment failed", metadata: ["error": "\(error)"])
            return .failure(ConsoleStepFailure("The gateway could not process the payment now."))
        }
    }
}
