import Foundation
import GatewayCore
import Hummingbird
import MPGSAPI
import WireJSON

/// What the page shows, from the checkout session.
extension HostedCheckoutRoutes {
    func model(_ checkout: HostedCheckoutPayments.Checkout, embedded: Bool, request: Request) -> PaymentPageModel {
        let merchant = checkout.settings.interaction["merchant"] ?? .object([:])
        var contact: [String] = []
        for name in ["url", "email", "phone"] {
            if let line = merchant[name]?.stringValue, !line.isEmpty { contact.append(line) }
        }
        for line in 1...4 {
            if let text = merchant["address"]?["line\(line)"]?.stringValue, !text.isEmpty { contact.append(text) }
        }
        let secondsLeft = max(0, Int(checkout.settings.deadline.timeIntervalSince(payments.now()).rounded(.down)))
        return PaymentPageModel(
            sessionId: checkout.sessionId,
            formToken: checkout.formToken,
            embedded: embedded,
            merchantName: displayName(checkout),
            merchantId: checkout.merchant.id,
            logoURL: Self.inlineLogo(merchant["logo"]?.stringValue),
            merchantContact: contact,
            orderDescription: checkout.orderDescription,
            amount: checkout.amount ?? "",
            currency: checkout.currency ?? "",
            items: checkout.items.map { PaymentPageModel.Item(name: $0.name, quantity: $0.quantity, amount: $0.unitPrice) },
            operation: Self.pageOperation(checkout.settings.operation),
            entered: EnteredCard(),
            fieldErrors: [:],
            message: nil,
            applePay: embedded ? nil : applePayOffer(checkout),
            googlePay: embedded ? nil : googlePayOffer(checkout),
            secondsLeft: secondsLeft
        )
    }

    static func pageOperation(_ operation: CheckoutSettings.Operation) -> PaymentPageModel.Operation {
        switch operation {
        case .purchase: .purchase
        case .authorize: .authorize
        case .verify: .verify
        case .none: .none
        }
    }

    /// Apple Pay is offered on the full page when the sandbox's Apple Pay runs here and the
    /// merchant has an Apple Pay identity: the page's sheet mints a token for that identity.
    private func applePayOffer(_ checkout: HostedCheckoutPayments.Checkout) -> ApplePayOffer? {
        guard sandboxApplePay != nil, !checkout.merchant.keyRing.identities.isEmpty, let amount = checkout.amount,
            let currency = checkout.currency
        else { return nil }
        return ApplePayOffer(
            countryCode: "US",
            currencyCode: currency,
            totalLabel: displayName(checkout),
            amount: amount,
            supportedNetworks: ["visa", "masterCard", "amex", "discover"],
            merchantCapabilities: ["supports3DS"],
            scriptPath: SandboxApplePayRoutes.scriptPath
        )
    }

    /// The page loads nothing from outside the gateway: a logo given inline (a `data:image/…`
    /// URL, up to 64 KiB) is shown; one on the merchant's own server is not fetched.
    static func inlineLogo(_ logo: String?) -> String? {
        guard let logo, logo.utf8.count <= 65_536,
            ["data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;", "data:image/svg+xml;"].contains(where: logo.hasPrefix)
        else { return nil }
        return logo
    }
}
