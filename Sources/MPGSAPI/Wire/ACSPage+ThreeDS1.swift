/// The sandbox ACS for 3-D Secure 1: the form the merchant's page posts there (PaReq, TermUrl,
/// MD, as issuers' ACSs take them), the challenge, and the way back that posts PaRes and MD to
/// the TermUrl.
extension ACSPage {
    /// `3DSecure.authenticationRedirect.simple.htmlBodyContent`: a self-submitting form.
    static func threeDS1RedirectHTML(acsURL: String, paReq: String, termURL: String, md: String) -> String {
        """
        <div id="threeDS1Redirect"><form id="threeDS1RedirectForm" name="echoForm" method="POST" \
        action="\(escape(acsURL))" accept-charset="UTF-8"><input type="hidden" name="PaReq" value="\(escape(paReq))"/>\
        <input type="hidden" name="TermUrl" value="\(escape(termURL))"/><input type="hidden" name="MD" value="\(escape(md))"/>\
        <noscript><button type="submit">Continue to your bank</button></noscript></form>\
        <script>var e=document.getElementById("threeDS1RedirectForm");if(e){e.submit();}</script></div>
        """
    }

    /// The 3-D Secure 1 challenge: the payer enters the code (1234 authenticates) or picks the outcome.
    static func threeDS1Challenge(paReq: String, termURL: String, md: String, merchant: String, amount: String, card: String) -> String {
        page(
            title: "Sandbox 3-D Secure 1 authentication",
            """
            <h1>Sandbox 3-D Secure 1 authentication</h1>
            <p>Merchant <b>\(escape(merchant))</b> asks you to confirm a payment of <b>\(escape(amount))</b> \
            with card <b>\(escape(card))</b>.</p>
            <p>This is the gateway's simulated issuer (sandbox mode): no bank is involved.</p>
            <form id="acsChallengeForm" method="POST" action="\(ThreeDS1ACSRoutes.resultPath)">
            <input type="hidden" name="PaReq" value="\(escape(paReq))"/>
            <input type="hidden" name="TermUrl" value="\(escape(termURL))"/>
            <input type="hidden" name="MD" value="\(escape(md))"/>
            <p><label for="code">Password (1234 authenticates, anything else fails)</label><br/>
            <input id="code" name="code" type="text" autocomplete="off" inputmode="numeric" maxlength="8"/></p>
            <p><label for="outcome">Or pick the outcome</label><br/>
            <select id="outcome" name="outcome">
            <option value="">Decide by the password</option>
            <option value="Y">Authenticated (PaRes status Y)</option>
            <option value="N">Not authenticated (PaRes status N)</option>
            </select></p>
            <p><button id="submitChallenge" type="submit">Submit</button></p>
            </form>
            """
        )
    }
}
