import Foundation

import GatewayCore

/// Transactions for store tests, each with a value in every column.
package enum SampleRecords {
    package static func record(order: String, transaction: String = "1", applePay: String? = nil) -> TransactionRecord {
        TransactionRecord(
            receipt: receipt(order: order, transaction: transaction),
            operation: "PAY",
            requestHash: Array("hash-\(order)-\(transaction)".utf8),
            response: StoredResponse(format: ResponseFormat(rawValue: "TEST"), bytes: Array("body-\(order)".utf8)),
            eciIndicator: nil,
            applePayReplay: applePay.map(ApplePayReplayKey.named),
            isInitial: true,
            voidsTarget: false,
            expectedOrderVersion: nil
        )
    }

    /// A typed transaction with a value in every optional column, so a column the stores drop shows.
    package static func receipt(order: String, transaction: String) -> TransactionReceipt {
        var outcome = AcquirerOutcome(gatewayCode: "APPROVED", acquirerCode: "00", acquirerMessage: "Approved", authorizedMinorUnits: 100)
        outcome.authorizationCode = "123456"
        outcome.receipt = "000001"
        outcome.stan = "42"
        outcome.securityCodeResult = .match
        var receipt = TransactionReceipt(
            merchantId: "M",
            orderId: order,
            transactionId: transaction,
            version: APIVersion("61")!,
            transactionType: "PAYMENT",
            amount: Amount(minorUnits: 100, currency: Currency(code: "USD")!),
            transactionSource: "INTERNET",
            transactionReference: "ref-\(transaction)",
            targetTransactionId: nil,
            card: CardDetails(
                maskedNumber: "512345xxxxxx0008",
                brand: CardBrand(name: "MAESTRO"),
                expiry: CardExpiry(month: 1, year: 39),
                nameOnCard: "A Payer",
                device: .init(maskedNumber: "512345xxxxxx0008", expiry: CardExpiry(month: 2, year: 40), cryptogramFormat: .emv)
            ),
            outcome: outcome,
            order: OrderState(
                amountMinorUnits: 100,
                currency: "USD",
                status: "CAPTURED",
                totalAuthorizedMinorUnits: 100,
                totalCapturedMinorUnits: 100,
                totalRefundedMinorUnits: 0,
                walletProvider: "APPLE_PAY",
                reference: "order-ref",
                creationTime: Date(milliseconds: 1_700_000_000_000)
            ),
            time: Date(milliseconds: 1_700_000_000_000),
            echo: RequestEcho(.object(["billing": .object(["address": .object(["city": .string("Paris")])])]))
        )
        // 3-D Secure: the authentication the payment carried.
        receipt.authentication = PaymentAuthentication(
            transactionId: "auth-\(transaction)",
            status: .successful,
            version: "3DS2",
            acsEci: "02",
            threeDSTransactionId: "6b2c5bc3-5d61-4bb5-9a8c-5a0c0d2f3e11",
            dsTransactionId: "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
            protocolVersion: "2.2.0",
            transactionStatus: .authenticated
        )
        return receipt
    }
}

extension TransactionStore {
    /// Records `record(key)` for every key at once, so that they share commits; each one's
    /// outcome or failure, by its key.
    package func recordTogether(
        _ keys: [String],
        _ record: (String) -> TransactionRecord
    ) async -> [String: Result<RecordOutcome, any Error>] {
        await withTaskGroup(of: (String, Result<RecordOutcome, any Error>).self) { group in
            for key in keys {
                let record = record(key)
                group.addTask {
                    do {
                        return (key, .success(try await self.record(record)))
                    } catch {
                        return (key, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }
}
