import ApplePayToken
import Crypto
import GatewayCore
import GatewayHTTP
import Hummingbird

extension RadialRoutes {
    /// `CreditCardAuth`: the request decoded into the core's AUTHORIZE, processed exactly as the
    /// MPGS route does (same order, same replay records, same simulator), answered as a
    /// `CreditCardAuthReply`. The order id is the MPGS order id and `requestId` the transaction
    /// id, so `GET .../order/{OrderId}` on the MPGS API shows the order, and an identical retry
    /// gets the stored answer.
    func creditCardAuth(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let merchant = try merchant(request, context)
        let (bytes, root) = try await document(request)
        let auth = try RadialCreditCardAuthRequest(root)
        let rootName = RadialCreditCardAuthRequest.root
        let walletPath = "\(rootName)/WalletPaymentInformation"
        let source: PaymentRequest.Source
        var amount = auth.amount
        let orderIdPath: String
        switch auth.payment {
        case .card(let card):
            source = .card(card)
            orderIdPath = "\(rootName)/PaymentContext/OrderId"
        case .wallet(let wallet):
            orderIdPath = "\(rootName)/OrderId"
            if amount == nil {
                // Decrypted here to read the amount, and handed on decrypted: once per request.
                let decrypted = try await decrypt(wallet, merchant: merchant)
                amount = try tokenAmount(decrypted)
                source = .decryptedApplePayToken(decrypted)
            } else {
                source = .applePayToken(wallet.token, applicationData: nil)
            }
        }
        guard let amount else { throw RadialFault.invalid("\(rootName)/Amount", "is required") }
        let payment = PaymentRequest(
            operation: .authorize,
            amount: amount,
            walletProvider: auth.payment.isWallet ? .applePay : nil,
            orderReference: nil,
            transactionReference: nil,
            transactionSource: "INTERNET",
            source: source
        )
        let transaction = PaymentProcessor.Context(
            merchant: merchant,
            orderId: auth.orderId,
            transactionId: auth.requestId,
            version: .latest,
            fingerprint: fingerprinter.fingerprint(
                canonical: root.canonicalBytes(omitting: RadialCreditCardAuthRequest.securityCodeElements),
                legacyHashInput: { bytes }
            ),
            encoding: RadialResponseEncoder(schemaVersion: auth.schemaVersion)
        )
        do {
            return Self.xml(.ok, try await processor.process(payment, transaction, logger: context.logger).responseBody)
        } catch let rejection as PaymentRejection {
            throw RadialFault(rejection, root: rootName, orderIdPath: orderIdPath, walletPath: walletPath)
        }
    }

    private func decrypt(_ wallet: RadialWalletToken, merchant: Merchant) async throws(RadialFault) -> DecryptedPaymentToken {
        do {
            return try await decryptor.decrypt(wallet.token, using: merchant.keyRing)
        } catch {
            throw RadialFault(TokenRejection(error), root: RadialCreditCardAuthRequest.root, walletPath: wallet.path)
        }
    }

    /// A wallet request without `Amount` authorizes what the token says (the processor still
    /// checks the rest: currency, replay).
    private func tokenAmount(_ decrypted: DecryptedPaymentToken) throws(RadialFault) -> Amount {
        let root = RadialCreditCardAuthRequest.root
        let payment = decrypted.paymentData
        guard let currency = Currency(numericCode: payment.currencyCode) else {
            throw RadialFault.invalid(
                "\(root)/Amount",
                "is required: the token's currency \(payment.currencyCode) is not one this gateway settles in"
            )
        }
        guard payment.transactionAmount > 0 else {
            throw RadialFault.invalid("\(root)/Amount", "is required: the token carries no amount")
        }
        return Amount(minorUnits: payment.transactionAmount, currency: currency)
    }
}

extension RadialCreditCardAuthRequest.Payment {
    var isWallet: Bool {
        if case .wallet = self { true } else { false }
    }
}
