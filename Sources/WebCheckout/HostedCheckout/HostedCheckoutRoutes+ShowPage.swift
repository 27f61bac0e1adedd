import Foundation
import GatewayCore
import GatewayHTTP
import HTTPTypes
import Hummingbird
import MPGSAPI
import WireJSON

/// `POST /api/page/version/{v}/pay`: where `Checkout.showPaymentPage()`, `showEmbeddedPage()` and
/// `showLightbox()` ask for the page (and where some integrations post a plain HTML form with
/// `session.id`). It records the merchant page's return addresses and, from the legacy script,
/// the order fields `Checkout.configure` gave, then answers the page's address.
extension HostedCheckoutRoutes {
    func registerShowPage(on router: Router<GatewayRequestContext>) {
        let path: RouterPath = "/api/page/version/:version/pay"
        router.post(path) { request, context in
            var response = await showPage(request, context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
        router.on(path, method: .options) { _, _ in
            Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: "*", .accessControlAllowMethods: "POST",
                    .accessControlAllowHeaders: "Content-Type, Accept", .accessControlMaxAge: "600",
                ]
            )
        }
        router.refuseMethods(except: [.post, .options], on: path)
    }

    /// The order fields the legacy `Checkout.configure` may give (the session's win).
    static let configurableOrderFields = ["amount", "currency", "description", "reference"]

    private func showPage(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        let wantsJSON = request.headers[.accept]?.contains("application/json") ?? false
        func refuse(_ error: GatewayError) -> Response {
            wantsJSON
                ? BrowserResponse.json(error.status, error.body)
                : BrowserResponse.page(
                    error.status,
                    PaymentPage.problem(title: "This payment cannot be shown", message: error.pageExplanation, embedded: false)
                )
        }
        guard let bytes = await body(request), let fields = Self.fields(bytes) else {
            return refuse(.invalidBrowserRequest(nil, "The request body must be a form (application/x-www-form-urlencoded) or a JSON object"))
        }
        guard let sessionId = fields["session.id"], !sessionId.isEmpty else {
            return refuse(
                .invalidBrowserRequest(
                    "session.id",
                    "Missing parameter 'session.id': configure the checkout with the session id INITIATE_CHECKOUT returned"
                )
            )
        }
        do {
            guard let checkout = try await payments.open(sessionId) else { return refuse(.unknownCheckoutSession) }
            let mode = CheckoutSettings.PageLinks.Mode(rawValue: fields["checkout.mode"] ?? "") ?? .paymentPage
            var order: [String: String] = [:]
            for name in Self.configurableOrderFields { order[name] = fields["order.\(name)"] }
            let links = CheckoutSettings.PageLinks(
                mode: mode,
                completeUrl: Self.webURL(fields["interaction.completeUrl"]),
                cancelUrl: Self.webURL(fields["interaction.cancelUrl"]),
                timeoutUrl: Self.webURL(fields["interaction.timeoutUrl"])
            )
            let attached = try await payments.attachPage(checkout, links: links, configuredOrder: order)
            guard attached.amount != nil, attached.currency != nil else {
                return refuse(
                    .invalidBrowserRequest(
                        "order.amount",
                        "Missing parameter 'order.amount': give it in INITIATE_CHECKOUT (or, before version 63, in Checkout.configure)"
                    )
                )
            }
            let page = mode == .paymentPage ? "/checkout/pay/\(sessionId)" : "/checkout/embedded/\(sessionId)"
            return wantsJSON ? BrowserResponse.json(.ok, .object(["redirectURL": .string(page)])) : BrowserResponse.seeOther(page)
        } catch {
            return refuse(GatewayError.refusal(for: error, logger: context.logger))
        }
    }

    /// Form fields, or a JSON object's members by dotted name (string and number values).
    static func fields(_ bytes: [UInt8]) -> [String: String]? {
        if let json = try? JSONValue(parsing: bytes), case .object = json {
            var fields: [String: String] = [:]
            flatten(json, prefix: "", into: &fields)
            return fields
        }
        return FormBody.parse(bytes)
    }

    private static func flatten(_ value: JSONValue, prefix: String, into fields: inout [String: String]) {
        switch value {
        case .object(let members):
            for (name, member) in members { flatten(member, prefix: prefix.isEmpty ? name : "\(prefix).\(name)", into: &fields) }
        case .string(let text): fields[prefix] = text
        case .integer(let number): fields[prefix] = String(number)
        case .double(let number): fields[prefix] = String(number)
        case .bool(let flag): fields[prefix] = String(flag)
        case .null, .array: break
        }
    }

    /// An http(s) address the browser may be sent to; anything else (javascript:, data:) is dropped.
    static func webURL(_ text: String?) -> String? {
        guard let text, text.utf8.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return text
    }
}
