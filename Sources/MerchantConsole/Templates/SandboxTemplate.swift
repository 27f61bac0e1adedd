/// The sandbox page: a test payment with a freshly minted Apple Pay or Google Pay token.
enum SandboxTemplate {
    static let text = """
        {{> header}}
        <p>Sandbox mode: the gateway mints an Apple Pay token (with its sandbox authority) or a Google Pay token (under
        its sandbox Google root) for this merchant and pays it through the API, as a merchant server would. The simulator's amounts apply (56.56 approves, 57.57 declines).</p>
        <form method="post" action="/ma/sandbox" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="operation">Operation</label>
        <select id="operation" name="operation"><option value="AUTHORIZE">AUTHORIZE</option><option value="PAY">PAY</option></select>
        <label for="wallet">Wallet</label>
        <select id="wallet" name="wallet"><option value="APPLE_PAY">Apple Pay</option><option value="GOOGLE_PAY">Google Pay</option></select>
        <label for="amount">Amount</label>
        <input id="amount" name="amount" value="56.56" inputmode="decimal" required>
        <label for="currency">Currency</label>
        <input id="currency" name="currency" value="USD" required maxlength="3">
        <button type="submit">Run test payment</button>
        </form>
        {{#orderLink}}<p><a href="/ma/orders/{{orderLink}}">Open order {{orderId}}</a></p>{{/orderLink}}
        {{> footer}}
        """
}
