import Foundation
import GatewayCore
import Hummingbird
import MPGSAPI
import WireJSON

/// How the page ends: the browser goes back to the merchant (its return, cancel or timeout
/// address, or the merchant page's hash the script reads), or, in an iframe, the page tells the
/// merchant page's script, which decides.
extension HostedCheckoutRoutes {
    enum Ending: String {
        case cancel
        case timeout
    }

    /// Paid (or, for NONE, the card saved): `returnUrl?resultIndicator=…&sessionVersion=…`.
    func completion(
        _ checkout: HostedCheckoutPayments.Checkout,
        resultIndicator: String,
        sessionVersion: String,
        embedded: Bool
    ) -> Response {
        let returnUrl = Self.webURL(checkout.settings.returnUrl)
        if embedded {
            return toParent(
                checkout,
                [
                    "event": .string("complete"), "resultIndicator": .string(resultIndicator),
                    "sessionVersion": .string(sessionVersion), "returnUrl": returnUrl.map(JSONValue.string) ?? .null,
                ]
            )
        }
        return BrowserResponse.seeOther(completionURL(checkout, resultIndicator: resultIndicator, sessionVersion: sessionVersion))
    }

    /// Cancel or timeout: the checkout's address for it, else the merchant page with the hash
    /// the script reads, else a page that says so.
    func ending(_ ending: Ending, _ checkout: HostedCheckoutPayments.Checkout, embedded: Bool) -> Response {
        let configured = ending == .cancel ? checkout.settings.cancelUrl : checkout.settings.timeoutUrl
        let url = Self.webURL(configured)
        if embedded {
            return toParent(checkout, ["event": .string(ending.rawValue), "url": url.map(JSONValue.string) ?? .null])
        }
        let page = ending == .cancel ? checkout.settings.page?.cancelUrl : checkout.settings.page?.timeoutUrl
        if let target = url ?? page { return BrowserResponse.seeOther(target) }
        let title = ending == .cancel ? "Payment cancelled" : "Time is up"
        let message =
            ending == .cancel
            ? "You cancelled the payment. Nothing was paid. Return to the shop to continue."
            : "The time to complete this payment has run out. Nothing was paid. Return to the shop to start again."
        return BrowserResponse.page(.ok, PaymentPage.problem(title: title, message: message, embedded: false))
    }

    /// The page in an iframe tells the merchant page's script what happened.
    private func toParent(_ checkout: HostedCheckoutPayments.Checkout, _ members: [String: JSONValue]) -> Response {
        var message = members
        message["source"] = .string("hosted-checkout")
        message["sessionId"] = .string(checkout.sessionId)
        let json = String(decoding: JSONValue.object(message).serialized(), as: UTF8.self)
        return BrowserResponse.page(.ok, PaymentPage.postToParent(json), framing: .anyOrigin)
    }

    /// `query` added to `url` with `?` or `&`, before any fragment.
    static func appending(_ query: String, to url: String) -> String {
        let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        let fragment = parts.count > 1 ? "#\(parts[1])" : ""
        return base + (base.contains("?") ? "&" : "?") + query + fragment
    }

    func displayName(_ checkout: HostedCheckoutPayments.Checkout) -> String {
        checkout.settings.merchantName.isEmpty ? checkout.merchant.id : checkout.settings.merchantName
    }
}
