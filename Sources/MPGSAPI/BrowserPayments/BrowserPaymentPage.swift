/// The sandbox PayPal page as HTML (issue 64): what `browserPayment.redirectHtml` embeds, the
/// page where the payer approves or cancels, and the way back to the merchant's `returnUrl`.
enum BrowserPaymentPage {
    /// `browserPayment.redirectHtml`: sends the browser to the provider's page.
    static func redirectHTML(_ url: String) -> String {
        """
        <div id="browserPaymentRedirect"><a id="browserPaymentRedirectLink" href="\(ACSPage.escape(url))">Continue to PayPal</a>\
        <script>window.location.replace(document.getElementById("browserPaymentRedirectLink").href);</script></div>
        """
    }

    /// The payer's choice: approve the payment or cancel it. The sealed interaction goes back with it.
    /// With CONFIRM_AT_MERCHANT the approval is PayPal's "Continue": the merchant confirms later.
    static func decision(_ sealed: String, merchant: String, amount: String, reference: String?, confirmAtMerchant: Bool = false) -> String {
        let approve =
            confirmAtMerchant
            ? "Continue: the merchant confirms the payment on its site" : "Approve the payment"
        return page(
            title: "Sandbox PayPal",
            """
            <h1>Sandbox PayPal</h1>
            <p>Merchant <b>\(ACSPage.escape(merchant))</b> asks you to pay <b>\(ACSPage.escape(amount))</b> with PayPal.</p>
            <p>This is the gateway's simulated PayPal (sandbox mode): no PayPal account is involved. The outcome \
            of an approval follows order.reference (TEST-SUCCEED, TEST-FAIL-DECLINE, TEST-PENDING, ...): \
            <b>\(ACSPage.escape(reference ?? "none"))</b>.</p>
            <form id="browserPaymentForm" method="POST" action="\(BrowserPaymentRoutes.decisionPath)">
            <input type="hidden" name="interaction" value="\(ACSPage.escape(sealed))"/>
            <p><button id="approve" name="decision" value="APPROVE" type="submit">\(approve)</button>
            <button id="cancel" name="decision" value="CANCEL" type="submit">Cancel and return to the merchant</button></p>
            </form>
            """
        )
    }

    /// Back to the merchant's `returnUrl` (a GET, so the URL's own query string survives).
    static func returnToMerchant(_ url: String) -> String {
        page(
            title: "Returning to the merchant",
            """
            <h1>Payment complete</h1>
            <p><a id="returnToMerchant" href="\(ACSPage.escape(url))">Return to the merchant</a></p>
            <script>window.location.replace(document.getElementById("returnToMerchant").href);</script>
            """
        )
    }

    static func problem(_ message: String) -> String {
        page(title: "Sandbox PayPal", "<h1>Sandbox PayPal</h1>\n<p id=\"problem\">\(ACSPage.escape(message))</p>")
    }

    private static func page(title: String, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"/><title>\(ACSPage.escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"/></head>
        <body>
        \(body)
        </body></html>

        """
    }
}
