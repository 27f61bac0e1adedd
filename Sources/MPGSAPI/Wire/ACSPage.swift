/// The sandbox ACS (the issuer's Access Control Server) as HTML: what the merchant's page embeds
/// to send the payer there, the challenge page, and the page that takes the payer back to the
/// merchant's `redirectResponseUrl`. Plain forms with no external assets; the embedded redirect
/// and the way back also submit themselves, and offer a button where scripts do not run.
enum ACSPage {
    /// `authentication.redirect.html`: a form that posts the challenge id to the ACS page.
    static func redirectHTML(acsURL: String, challengeId: String) -> String {
        """
        <div id="threedsChallengeRedirect"><form id="threedsChallengeRedirectForm" method="POST" \
        action="\(escape(acsURL))" target="_self"><input type="hidden" name="creq" value="\(escape(challengeId))"/>\
        <noscript><button type="submit">Continue to your bank</button></noscript></form>\
        <script id="authenticate-payer-script">var e=document.getElementById("threedsChallengeRedirectForm");\
        if(e){e.submit();}</script></div>
        """
    }

    /// The challenge: the payer enters the code (1234 authenticates) or picks the outcome.
    static func challenge(_ challengeId: String, merchant: String, amount: String, card: String) -> String {
        page(
            title: "Sandbox 3-D Secure challenge",
            """
            <h1>Sandbox 3-D Secure challenge</h1>
            <p>Merchant <b>\(escape(merchant))</b> asks you to confirm a payment of <b>\(escape(amount))</b> \
            with card <b>\(escape(card))</b>.</p>
            <p>This is the gateway's simulated issuer (sandbox mode): no bank is involved.</p>
            <form id="acsChallengeForm" method="POST" action="/acs/challenge/result">
            <input type="hidden" name="creq" value="\(escape(challengeId))"/>
            <p><label for="code">One-time code (1234 authenticates, any other code fails)</label><br/>
            <input id="code" name="code" type="text" autocomplete="off" inputmode="numeric" maxlength="8"/></p>
            <p><label for="outcome">Or pick the outcome</label><br/>
            <select id="outcome" name="outcome">
            <option value="">Decide by the code</option>
            <option value="Y">Authenticated (transStatus Y)</option>
            <option value="N">Not authenticated (transStatus N)</option>
            </select></p>
            <p><button id="submitChallenge" type="submit">Submit</button></p>
            </form>
            """
        )
    }

    /// Back to the merchant: the reference's fields, posted to `redirectResponseUrl`.
    static func returnToMerchant(_ url: String, fields: [(String, String)]) -> String {
        let inputs = fields.map { "<input type=\"hidden\" name=\"\(escape($0.0))\" value=\"\(escape($0.1))\"/>" }.joined()
        return page(
            title: "Returning to the merchant",
            """
            <h1>Authentication complete</h1>
            <form id="acsReturnForm" method="POST" action="\(escape(url))">\(inputs)
            <p><button id="returnToMerchant" type="submit">Return to the merchant</button></p>
            </form>
            <script>document.getElementById("acsReturnForm").submit();</script>
            """
        )
    }

    /// A page for what the ACS cannot do (an unknown or answered challenge, a malformed post).
    static func problem(_ message: String) -> String {
        page(title: "Sandbox 3-D Secure", "<h1>Sandbox 3-D Secure</h1>\n<p id=\"problem\">\(escape(message))</p>")
    }

    static func page(title: String, _ body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"/><title>\(escape(title))</title>
        <meta name="viewport" content="width=device-width, initial-scale=1"/></head>
        <body>
        \(body)
        </body></html>

        """
    }

    /// For text and attribute values alike.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
