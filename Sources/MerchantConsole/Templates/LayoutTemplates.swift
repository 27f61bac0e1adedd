/// The frame every page shares: document head, the console's own stylesheet, the navigation.
enum LayoutTemplates {
    static let header = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Merchant Administration</title>
        <link rel="stylesheet" href="/ma/console.css">
        </head>
        <body>
        <header class="bar">
        <p class="brand">Merchant Administration</p>
        {{#session}}
        <nav aria-label="Main">
        <ul>
        <li><a href="/ma/orders">Orders</a></li>
        <li><a href="/ma/applepay">Apple Pay certificates</a></li>
        <li><a href="/ma/integration">Integration settings</a></li>
        {{#sandbox}}<li><a href="/ma/sandbox">Sandbox payment</a></li>{{/sandbox}}
        <li><a href="/ma/audit">Audit log</a></li>
        </ul>
        </nav>
        <form method="post" action="/ma/logout" class="logout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <span>{{operator}} ({{role}}) · {{merchant}}</span>
        <button type="submit">Log out</button>
        </form>
        {{/session}}
        </header>
        <main>
        <h1>{{title}}</h1>
        {{#message}}<p class="message" role="status">{{message}}</p>{{/message}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        """

    static let footer = """
        </main>
        </body>
        </html>
        """
}
