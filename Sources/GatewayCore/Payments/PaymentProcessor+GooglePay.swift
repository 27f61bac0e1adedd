import ApplePayToken
import Dispatch
import Foundation
import GooglePayToken

extension PaymentProcessor {
    /// A Google Pay token's card, once Google's steps 1 to 6 pass for the merchant's recipient
    /// and the message is for this merchant.
    ///
    /// Google's message carries no amount or currency (the payer approved them on Google's sheet,
    /// which the merchant's page filled in): there is nothing of the order to check it against,
    /// unlike Apple's. `gatewayMerchantId`, which the merchant's page sets, must be the merchant's
    /// own when present, so a token made for one merchant of this gateway does not pay another.
    func resolveGooglePay(_ token: GooglePaymentMethodToken, _ request: PaymentRequest, _ context: Context) throws -> ResolvedCard {
        guard let recipient = context.merchant.googlePay else { throw PaymentRejection.token(.googlePayNotEnabled) }
        let start = DispatchTime.now().uptimeNanoseconds
        let decrypted: DecryptedGooglePayToken
        do {
            decrypted = try googlePayDecryptor.decrypt(token, for: recipient)
            environment.observer.tokenDecrypted(succeeded: true, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
        } catch {
            environment.observer.tokenDecrypted(succeeded: false, nanoseconds: DispatchTime.now().uptimeNanoseconds - start)
            throw PaymentRejection.token(TokenRejection(error))
        }
        let message = decrypted.message
        if let named = message.gatewayMerchantId, named != context.merchant.id {
            throw PaymentRejection.token(.gatewayMerchantMismatch(named))
        }
        let card = message.paymentMethodDetails
        // Google gives a four-digit year; cards here keep two digits, as the store and the test rules do.
        let expiry = CardExpiry(month: card.expirationMonth, year: card.expirationYear % 100)
        let masked = CardNumberMask.mask(card.pan)
        // CRYPTOGRAM_3DS is a device token with its cryptogram (a device payment, as Apple Pay's);
        // PAN_ONLY is the card itself, which 3-D Secure may authenticate like a typed-in one.
        let isDevice = card.authMethod == .cryptogram3DS
        let details = CardDetails(
            maskedNumber: masked,
            brand: CardBrand(cardNumber: card.pan),
            expiry: expiry,
            nameOnCard: nil,
            device: isDevice ? .init(maskedNumber: masked, expiry: expiry, cryptogramFormat: .threeDSecure) : nil
        )
        let acquirerRequest = AcquirerRequest(
            operation: request.operation,
            amount: request.amount,
            cardNumber: card.pan,
            expiry: expiry,
            securityCode: nil,
            isDevicePayment: isDevice
        )
        return ResolvedCard(
            details: details,
            acquirerRequest: acquirerRequest,
            applePayReplay: ApplePayReplayKey(googlePay: decrypted, signedMessage: token.signedMessage),
            eci: isDevice ? card.eciIndicator : nil
        )
    }
}
