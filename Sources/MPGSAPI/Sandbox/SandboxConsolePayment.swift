import Foundation
import GatewayCore
import GooglePaySandbox
import Logging
import WireJSON

/// Merchant Administration's sandbox page: mints an Apple Pay or Google Pay token for the
/// merchant and runs it through the MPGS request reading and the payment processor, exactly as a
/// merchant server's AUTHORIZE or PAY with that token would (sandbox mode only).
package struct SandboxConsolePayment: Sendable {
    let issuer: SandboxTokenIssuer
    let googlePay: GooglePayTokenMinter?
    let processor: PaymentProcessor
    let fingerprinter: RequestFingerprinter

    package init(
        issuer: SandboxTokenIssuer,
        googlePay: GooglePayTokenMinter? = nil,
        processor: PaymentProcessor,
        fingerprinter: RequestFingerprinter
    ) {
        self.issuer = issuer
        self.googlePay = googlePay
        self.processor = processor
        self.fingerprinter = fingerprinter
    }

    /// Why the payment was not made: the gateway's own explanation, naming the field.
    package struct Refusal: Error, Sendable {
        package var explanation: String
    }

    package func run(
        merchant: Merchant,
        operation: PaymentRequest.Operation,
        wallet: WalletProvider = .applePay,
        amount: String,
        currency: String,
        orderId: String,
        transactionId: String,
        logger: Logger
    ) async throws -> TransactionReceipt {
        do {
            let token = try mint(wallet, amount: amount, currency: currency, for: merchant)
            let body: JSONValue = .object([
                "apiOperation": .string(operation.rawValue),
                "order": .object(["amount": .string(amount), "currency": .string(currency), "walletProvider": .string(wallet.rawValue)]),
                "sourceOfFunds": .object([
                    "type": .string("CARD"),
                    "provided": .object(["card": .object(["devicePayment": .object(["paymentToken": .string(token)])])]),
                ]),
                "transaction": .object(["source": .string("INTERNET")]),
            ])
            let bytes = body.serialized()
            let reader = try RequestReader(body: bytes, shape: .any)
            let payment = try PaymentRequest.reading(reader, operation: operation)
            let context = TransactionContext(
                merchant: merchant,
                orderId: orderId,
                transactionId: transactionId,
                version: APIVersion.latest,
                fingerprint: fingerprinter.fingerprint(canonical: bytes, legacyHashInput: { bytes }),
                encoding: MPGSResponseEncoder()
            )
            return try await processor.process(payment, context, logger: logger).receipt
        } catch let error as GatewayError {
            throw Refusal(explanation: (error.field.map { "\($0): " } ?? "") + error.explanation)
        } catch let rejection as PaymentRejection {
            throw Refusal(explanation: rejection.gatewayError.explanation)
        }
    }

    /// A token of `wallet` for the merchant: Apple's for the amount, Google's (which carries none)
    /// for its recipient and newest key.
    private func mint(_ wallet: WalletProvider, amount: String, currency: String, for merchant: Merchant) throws -> String {
        switch wallet {
        case .applePay:
            var options = SandboxTokenOptions()
            options.amount = amount
            options.currency = currency
            return try issuer.mint(options, for: merchant, now: Date()).paymentToken
        case .googlePay:
            guard let googlePay else { throw Refusal(explanation: "The sandbox mints no Google Pay tokens here") }
            var message = GooglePayMintRequest()
            message.gatewayMerchantId = merchant.id
            return try googlePay.mint(message, for: merchant)
        }
    }
}
