import ApplePayToken
import GatewayCore

/// The one place where the core's rejections become the Radial-style API's faults, each naming
/// the request element at fault.
extension RadialFault {
    /// `orderIdPath` is where the request carried the order id (inside PaymentContext or not).
    init(_ rejection: PaymentRejection, root: String, orderIdPath: String, walletPath: String) {
        switch rejection {
        case .token(let token):
            self = RadialFault(token, root: root, walletPath: walletPath)
            // The core has reported it to its observer already.
            tokenRejection = nil
        case .transactionIdReused:
            self = RadialFault(
                .orderConflict,
                element: "\(root)/@requestId",
                "this requestId was already used on this order for a request with different content"
            )
        case .orderAlreadySucceeded:
            self = RadialFault(
                .orderConflict,
                element: orderIdPath,
                "the order already has a successful authorization; use a new OrderId"
            )
        case .orderChanged:
            self = RadialFault(.retry, element: orderIdPath, "another request on this order was processed at the same time; retry")
        case .orderNotFound, .orderCurrencyUnknown, .amountMissing, .currencyMismatch, .nothingToCapture, .nothingCaptured,
            .refundTargetNotFound, .exceedsAvailable, .nothingToVoid, .nothingToUpdate, .updateBelowCaptured, .authentication,
            .threeDS1, .riskReviewRejected:
            // Follow-on rules and 3-D Secure (MPGS only): an authorization never meets them, but a
            // fault is still precise.
            self = RadialFault(.invalidRequest, element: root, "\(rejection)")
        }
    }

    init(_ rejection: TokenRejection, root: String, walletPath: String) {
        let element: String
        switch rejection {
        case .library(let code, _): element = Self.element(for: code, walletPath: walletPath)
        case .replayed: element = "\(walletPath)/ApplePayTransactionId"
        case .currencyMismatch: element = "\(root)/Amount/@currencyCode"
        case .amountMismatch: element = "\(root)/Amount"
        case .applicationDataMismatch: element = walletPath
        case .malformedExpiry: element = "\(walletPath)/Data"
        // Radial's reference has no Google Pay wallet: its requests never carry such a token.
        case .googlePay, .googlePayNotEnabled, .gatewayMerchantMismatch, .googlePayReplayed: element = walletPath
        }
        let kind: Kind = rejection.isUndecided ? .serviceUnavailable : .tokenRejected
        self.init(kind, element: element, "\(rejection.code): \(rejection.reason)", tokenRejection: rejection)
    }

    /// The token part each library verdict is about: the signature and its chain, the key the
    /// hash names, the ciphertext.
    static func element(for code: ApplePayTokenError.Code, walletPath: String) -> String {
        switch code {
        case .unsupportedVersion: "\(walletPath)/Version"
        case .signatureInvalid, .messageDigestMismatch, .missingLeafMarker, .missingIntermediateMarker, .untrustedChain,
            .signingTimeOutsideWindow:
            "\(walletPath)/Signature"
        case .noMatchingKey: "\(walletPath)/PublicKeyHash"
        case .invalidKeyMaterial: "\(walletPath)/EphemeralPublicKey"
        case .decryptionFailed, .malformedPaymentData: "\(walletPath)/Data"
        default: walletPath
        }
    }
}
