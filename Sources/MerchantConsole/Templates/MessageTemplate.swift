/// A refusal or notice on its own page (forbidden, not found, a form that could not be read).
enum MessageTemplate {
    static let text = """
        {{> header}}
        <p><a href="/ma/orders">Back to orders</a></p>
        {{> footer}}
        """
}
