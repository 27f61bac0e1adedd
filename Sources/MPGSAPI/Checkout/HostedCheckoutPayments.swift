import Crypto
import Foundation
import GatewayCore
import Logging
import WireJSON

/// What the hosted payment page does with a checkout session, through the same paths the API
/// takes: the card goes into the session as Update Session puts it there, 3-D Secure runs as
/// INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER would, and the payment is the AUTHORIZE, PAY or
/// VERIFY `interaction.operation` names, made with `session.id`, so the core's rules, the
/// notifications and the console see an ordinary payment. The payer's browser holds only the
/// session id.
package struct HostedCheckoutPayments: Sendable {
    let routes: GatewayRoutes

    package init(routes: GatewayRoutes) {
        self.routes = routes
    }

    /// The gateway's clock (the one sessions expire by).
    package func now() -> Date { routes.sessions.clock() }

    /// A live checkout session as the page shows it.
    package struct Checkout: Sendable {
        package var sessionId: String
        package var merchant: Merchant
        package var settings: CheckoutSettings
        /// `session.version` now.
        package var sessionVersion: String
        /// The order as the session holds it (amount and currency may still be missing before
        /// the legacy script gives them).
        package var order: JSONValue
        var session: SessionService.OpenSession

        package var amount: String? { RequestReader(checked: order).text("amount") }
        package var currency: String? { RequestReader(checked: order).text("currency") }
        package var orderId: String { RequestReader(checked: order).text("id") ?? "" }
        package var orderDescription: String? { RequestReader(checked: order).text("description") }
        /// `order.item[]` as the page lists it: name, quantity, unit price.
        package var items: [(name: String, quantity: String, unitPrice: String?)] {
            guard case .array(let items) = order["item"] else { return [] }
            return items.map { item in
                let reader = RequestReader(checked: item)
                return (reader.text("name") ?? "", reader.text("quantity") ?? "1", reader.text("unitPrice"))
            }
        }

        /// What every form of the page carries: a MAC of the session id under the session's own
        /// key, so a form made for one session is refused by any other.
        package var formToken: String {
            let key = SymmetricKey(data: Data(base64Encoded: session.aes256Key) ?? Data())
            let mac = HMAC<SHA256>.authenticationCode(for: Data("hosted checkout form|\(sessionId)".utf8), using: key)
            return Data(mac).prefix(16).map { String(format: "%02x", $0) }.joined()
        }

        /// Whether `token` is this session's form token (compared in constant time).
        package func accepts(formToken token: String) -> Bool {
            let expected = Array(formToken.utf8)
            let given = Array(token.utf8)
            guard expected.count == given.count else { return false }
            return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    /// How a page action ended.
    package enum Outcome: Sendable {
        /// The interaction is over: the browser goes back to the merchant with these.
        case completed(resultIndicator: String, sessionVersion: String, succeeded: Bool)
        /// Not paid; the payer may try again (a decline, a failed authentication).
        case retry(message: String)
        /// The card's issuer wants a challenge: this HTML sends the browser to its ACS.
        case challenge(html: String)
        /// What the payer typed is not a card the page can pay with: words per page field.
        case invalid([CardField: String])
        /// The payer's time ran out.
        case timedOut
    }

    /// The card form's fields, as the page names its inputs.
    package enum CardField: String, Sendable, Hashable, CaseIterable {
        case number = "card-number"
        case expiryMonth = "expiry-month"
        case expiryYear = "expiry-year"
        case securityCode = "security-code"
        case nameOnCard = "name-on-card"
    }

    /// What the payer typed.
    package struct EnteredCard: Sendable {
        package var number: String
        package var expiryMonth: String
        package var expiryYear: String
        package var securityCode: String
        package var nameOnCard: String

        package init(number: String, expiryMonth: String, expiryYear: String, securityCode: String, nameOnCard: String) {
            self.number = number
            self.expiryMonth = expiryMonth
            self.expiryYear = expiryYear
            self.securityCode = securityCode
            self.nameOnCard = nameOnCard
        }
    }

    /// The live checkout session `sessionId` names; nil when there is none (unknown, expired,
    /// paid, or a session that is not a checkout's).
    package func open(_ sessionId: String) async throws -> Checkout? {
        guard let session = try await routes.sessions.openForPayer(id: sessionId), let settings = session.checkout,
            let merchant = routes.authentication.merchants[session.stored.merchantId]
        else { return nil }
        return Checkout(
            sessionId: session.id,
            merchant: merchant,
            settings: settings,
            sessionVersion: session.stored.version,
            order: session.content["order"] ?? .object([:]),
            session: session
        )
    }

    /// The merchant's page reports where the browser goes back to, and (legacy script) the
    /// order fields its `Checkout.configure` gave. What the session already holds wins; the
    /// amount and currency are checked as a payment would check them.
    package func attachPage(
        _ checkout: Checkout,
        links: CheckoutSettings.PageLinks,
        configuredOrder: [String: String]
    ) async throws -> Checkout {
        var session = checkout.session
        var settings = checkout.settings
        settings.page = links
        session.checkout = settings
        var order: [String: JSONValue] = [:]
        for (name, value) in configuredOrder where checkout.order[name] == nil && !value.isEmpty {
            order[name] = .string(value)
        }
        let update: JSONValue = order.isEmpty ? .object([:]) : .object(["order": .object(order)])
        try SessionContent.validate(SessionContent.merged(session.content, update))
        let updated = try await routes.sessions.update(session, with: update)
        guard let reopened = try await open(updated.id) else { throw SessionRejection.notFound }
        return reopened
    }
}
