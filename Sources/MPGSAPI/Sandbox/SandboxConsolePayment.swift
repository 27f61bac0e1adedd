import Foundation
import GatewayCore
import Logging
import WireJSON

/// Merchant Administration's sandbox page: mints an Apple Pay token for the merchant and runs
/// it through the MPGS request reading and the payment processor, exactly as a merchant server's
/// AUTHORIZE or PAY with that token would (sandbox mode only).
package struct SandboxConsolePayment: Sendable {
    let issuer: SandboxTokenIssuer
    let processor: PaymentProcessor
    let fingerprinter: RequestFingerprinter

    package init(issuer: SandboxTokenIssuer, processor: PaymentProcessor, fingerprinter: RequestFingerprinter) {
        self.issuer = issuer
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
        amount: String,
        currency: String,
        orderId: String,
        transactionId: String,
        logger: Logger
    ) async throws -> TransactionReceipt {
        do {
            var options = SandboxTokenOptions()
            options.amount = amount
            options.currency = currency
            let token = try issuer.mint(options, for: merchant, now: Date())
            let body: JSONValue = .object([
                "apiOperation": .string(operation.rawValue),
                "order": .object(["amount": .string(amount), "currency": .string(currency), "walletProvider": .string("APPLE_PAY")]),
                "sourceOfFunds": .object([
                    "type": .string("CARD"),
                    "provided": .object(["card": .object(["devicePayment": .object(["paymentToken": .string(token.paymentToken)])])]),
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
}
