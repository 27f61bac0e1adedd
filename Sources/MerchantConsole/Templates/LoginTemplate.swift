/// The login form: merchant, operator name, password, and the login form's CSRF token.
enum LoginTemplate {
    static let text = """
        {{> header}}
        <form method="post" action="/ma/login" class="stack">
        <input type="hidden" name="csrf" value="{{loginToken}}">
        <label for="merchant">Merchant ID</label>
        <input id="merchant" name="merchant" value="{{merchantId}}" required autocomplete="organization">
        <label for="name">Operator</label>
        <input id="name" name="name" value="{{name}}" required autocomplete="username">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" required autocomplete="current-password">
        <button type="submit">Log in</button>
        </form>
        {{> footer}}
        """
}
