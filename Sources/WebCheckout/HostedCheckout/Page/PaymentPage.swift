import WireJSON

/// The hosted payment page's HTML: the merchant, the order summary, a card form a keyboard and a
/// screen reader can use, Cancel, and the Apple Pay button its script reveals. No inline script
/// and no inline event handler (the Content-Security-Policy allows the gateway's own files only);
/// what the script needs is JSON in a `<script type="application/json">` element. Every text a
/// merchant or payer gave is escaped.
enum PaymentPage {
    static func render(_ model: PaymentPageModel) -> String {
        let sessionPath = "/checkout/pay/\(escape(model.sessionId))"
        return document(
            title: "Pay \(model.merchantName)",
            embedded: model.embedded,
            body: """
                <main class="checkout">
                \(header(model))
                \(summary(model))
                <div id="payment-message" class="message" role="alert">\(model.message.map(escape) ?? "")</div>
                <section class="pay" aria-labelledby="pay-heading">
                <h2 id="pay-heading">\(model.operation == .none ? "Card details" : "Payment")</h2>
                \(model.applePay == nil ? "" : applePayButton)
                \(model.googlePay == nil ? "" : googlePayButton)
                \(model.applePay == nil && model.googlePay == nil ? "" : walletOr)
                <form id="card-form" method="post" action="\(sessionPath)" novalidate>
                \(hiddenFields(model))
                \(field(model, id: "card-number", name: "cardNumber", label: "Card number", autocomplete: "cc-number", numeric: true, value: ""))
                <fieldset class="expiry"><legend>Expiry date</legend>
                \(field(model, id: "expiry-month", name: "expiryMonth", label: "Month (MM)", autocomplete: "cc-exp-month", numeric: true, value: model.entered.expiryMonth, size: 2))
                \(field(model, id: "expiry-year", name: "expiryYear", label: "Year (YY)", autocomplete: "cc-exp-year", numeric: true, value: model.entered.expiryYear, size: 4))
                </fieldset>
                \(field(model, id: "security-code", name: "securityCode", label: "Security code", autocomplete: "cc-csc", numeric: true, value: "", size: 4, hint: "3 or 4 digits, on the back of most cards"))
                \(field(model, id: "name-on-card", name: "nameOnCard", label: "Name on card (optional)", autocomplete: "cc-name", numeric: false, value: model.entered.nameOnCard))
                <button type="submit" id="pay-button" class="primary">\(escape(buttonLabel(model)))</button>
                </form>
                <form id="cancel-form" method="post" action="\(sessionPath)/cancel">
                \(hiddenFields(model))<input type="hidden" name="reason" value="cancel">
                <button type="submit" id="cancel-button" class="secondary">Cancel</button>
                </form>
                </section>
                <p class="note">Your card details go to the payment gateway only; \(escape(model.merchantName)) never sees them.</p>
                </main>
                \(pageData(model))
                \(model.applePay?.scriptPath.map { "<script src=\"\(escape($0))\"></script>" } ?? "")
                \(model.googlePay?.scriptPath.map { "<script src=\"\(escape($0))\"></script>" } ?? "")
                <script src="/checkout/assets/page.js"></script>
                """
        )
    }

    /// A page that says why there is nothing to pay (an unknown, expired or paid session, a
    /// refusal), in words.
    static func problem(title: String, message: String, embedded: Bool) -> String {
        document(
            title: title,
            embedded: embedded,
            body: """
                <main class="checkout">
                <h1>\(escape(title))</h1>
                <p class="message" role="alert">\(escape(message))</p>
                </main>
                <script src="/checkout/assets/page.js"></script>
                """
        )
    }

    /// The gateway's own end page, when the merchant gave nowhere to return to.
    static func receipt(merchantName: String, amount: String, currency: String, succeeded: Bool, reference: String?) -> String {
        let title = succeeded ? "Payment complete" : "Payment not completed"
        var lines = "<p>\(escape(merchantName)): \(escape(amount)) \(escape(currency))</p>"
        if let reference { lines += "<p>Reference: \(escape(reference))</p>" }
        return document(title: title, embedded: false, body: "<main class=\"checkout\"><h1>\(title)</h1>\(lines)</main>")
    }

    /// The page in the merchant's iframe that tells the merchant page's script how it ended
    /// (`page.js` posts the JSON to the parent).
    static func postToParent(_ messageJSON: String) -> String {
        document(
            title: "Returning to the shop",
            embedded: true,
            body: """
                <main class="checkout"><p role="status">Returning to the shop…</p></main>
                <script type="application/json" id="parent-message">\(scriptSafe(messageJSON))</script>
                <script src="/checkout/assets/page.js"></script>
                """
        )
    }

    // MARK: - Parts

    private static func document(title: String, embedded: Bool, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="/checkout/assets/page.css">
        </head>
        <body class="\(embedded ? "embedded" : "full")">
        \(body)
        </body></html>
        """
    }

    private static func header(_ model: PaymentPageModel) -> String {
        let logo = model.logoURL.map { "<img class=\"logo\" src=\"\(escape($0))\" alt=\"\(escape(model.merchantName)) logo\">" } ?? ""
        let contact =
            model.merchantContact.isEmpty
            ? "" : "<p class=\"contact\">\(model.merchantContact.map(escape).joined(separator: " · "))</p>"
        return "<header class=\"merchant\">\(logo)<h1>\(escape(model.merchantName))</h1>\(contact)</header>"
    }

    private static func summary(_ model: PaymentPageModel) -> String {
        var parts = "<section class=\"summary\" aria-labelledby=\"summary-heading\"><h2 id=\"summary-heading\">Order summary</h2>"
        if let description = model.orderDescription, !description.isEmpty { parts += "<p>\(escape(description))</p>" }
        if !model.items.isEmpty {
            parts += "<ul class=\"items\">"
            for item in model.items {
                let price = item.amount.map { " — \(escape($0)) \(escape(model.currency))" } ?? ""
                parts += "<li>\(escape(item.quantity)) × \(escape(item.name))\(price)</li>"
            }
            parts += "</ul>"
        }
        parts += "<p class=\"total\"><span>Total</span> <strong>\(escape(model.amount)) \(escape(model.currency))</strong></p></section>"
        return parts
    }

    private static let applePayButton = """
        <button type="button" id="apple-pay-button" class="apple-pay" aria-label="Apple Pay" hidden>\
        <span aria-hidden="true">Apple Pay</span></button>
        """

    /// Where page.js puts the button Google's `createButton` makes.
    private static let googlePayButton = """
        <div id="google-pay-button" class="google-pay" hidden></div>
        """

    /// Shown once whichever wallet button the script reveals (its id is Apple Pay's, as before).
    private static let walletOr = """
        <p class="or" id="apple-pay-or" hidden>or pay by card</p>
        """

    private static func hiddenFields(_ model: PaymentPageModel) -> String {
        "<input type=\"hidden\" name=\"formToken\" value=\"\(escape(model.formToken))\">"
            + "<input type=\"hidden\" name=\"mode\" value=\"\(model.embedded ? "embedded" : "page")\">"
    }

    private static func field(
        _ model: PaymentPageModel,
        id: String,
        name: String,
        label: String,
        autocomplete: String,
        numeric: Bool,
        value: String,
        size: Int? = nil,
        hint: String? = nil
    ) -> String {
        let error = model.fieldErrors[id]
        var describedBy: [String] = []
        var extra = ""
        if let hint {
            describedBy.append("hint-\(id)")
            extra += "<p class=\"hint\" id=\"hint-\(id)\">\(escape(hint))</p>"
        }
        if let error {
            describedBy.append("error-\(id)")
            extra += "<p class=\"error\" id=\"error-\(id)\">\(escape(error))</p>"
        }
        var attributes = "id=\"\(id)\" name=\"\(name)\" autocomplete=\"\(autocomplete)\" value=\"\(escape(value))\""
        if numeric { attributes += " inputmode=\"numeric\"" }
        if let size { attributes += " maxlength=\"\(size)\" class=\"short\"" }
        if id != "name-on-card" { attributes += " required" }
        if !describedBy.isEmpty { attributes += " aria-describedby=\"\(describedBy.joined(separator: " "))\"" }
        if error != nil { attributes += " aria-invalid=\"true\"" }
        return "<div class=\"field\"><label for=\"\(id)\">\(escape(label))</label><input type=\"text\" \(attributes)>\(extra)</div>"
    }

    private static func buttonLabel(_ model: PaymentPageModel) -> String {
        switch model.operation {
        case .purchase, .authorize: "Pay \(model.amount) \(model.currency)"
        case .verify: "Verify card"
        case .none: "Save card"
        }
    }

    /// What page.js reads: the session, the form token, Apple Pay's request, the time left.
    private static func pageData(_ model: PaymentPageModel) -> String {
        var data: [String: JSONValue] = [
            "sessionId": .string(model.sessionId), "formToken": .string(model.formToken), "embedded": .bool(model.embedded),
        ]
        if let seconds = model.secondsLeft { data["secondsLeft"] = .integer(Int64(seconds)) }
        if let offer = model.applePay {
            data["applePay"] = .object([
                "countryCode": .string(offer.countryCode), "currencyCode": .string(offer.currencyCode),
                "total": .object(["label": .string(offer.totalLabel), "amount": .string(offer.amount)]),
                "supportedNetworks": .array(offer.supportedNetworks.map(JSONValue.string)),
                "merchantCapabilities": .array(offer.merchantCapabilities.map(JSONValue.string)),
            ])
        }
        if let offer = model.googlePay {
            data["googlePay"] = .object([
                "gateway": .string(offer.gateway), "gatewayMerchantId": .string(offer.gatewayMerchantId),
                "merchantName": .string(offer.merchantName), "currencyCode": .string(offer.currencyCode),
                "totalPrice": .string(offer.totalPrice),
            ])
        }
        let json = String(decoding: JSONValue.object(data).serialized(), as: UTF8.self)
        return "<script type=\"application/json\" id=\"page-data\">\(scriptSafe(json))</script>"
    }

    static func escape(_ text: String) -> String { BrowserResponse.escape(text) }

    /// JSON inside a `<script>` element: `<`, `>` and `&` as JSON escapes, so no text ends the element.
    static func scriptSafe(_ json: String) -> String {
        json.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
