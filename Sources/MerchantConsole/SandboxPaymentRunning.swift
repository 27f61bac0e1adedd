import Foundation
import GatewayCore
import Logging

/// The sandbox page's payment: a minted Apple Pay token paid through the API's own reading and
/// processor (the server supplies it in sandbox mode only).
package protocol SandboxPaymentRunning: Sendable {
    /// The recorded transaction, or the gateway's explanation of why not.
    func pay(
        merchant: Merchant,
        operation: PaymentRequest.Operation,
        wallet: WalletProvider,
        amount: String,
        currency: String,
        orderId: String,
        transactionId: String,
        logger: Logger
    ) async -> Result<TransactionReceipt, ConsoleStepFailure>
}
