/// Integration settings: the API passwords with rotation, the notification settings and the
/// delivery log with redeliver.
enum IntegrationTemplate {
    static let text = """
        {{> header}}
        {{#newPassword}}<p class="message" role="status">New API password: <code>{{newPassword}}</code></p>{{/newPassword}}
        <table>
        <caption>Active API passwords (at most two: add a second, move your servers to it, retire the first)</caption>
        <thead><tr><th scope="col">Fingerprint</th><th scope="col">Origin</th>{{#admin}}<th scope="col">Retire</th>{{/admin}}</tr></thead>
        <tbody>
        {{#passwords}}<tr><td><code>{{fingerprint}}</code></td><td>{{origin}}</td>
        {{#admin}}<td>{{#mayRetire}}<form method="post" action="/ma/integration/passwords/{{fingerprint}}/retire">
        <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" aria-label="Retire password {{fingerprint}}">Retire</button>
        </form>{{/mayRetire}}{{^mayRetire}}the only one{{/mayRetire}}</td>{{/admin}}</tr>
        {{/passwords}}
        </tbody>
        </table>
        {{#mayAdd}}
        <form method="post" action="/ma/integration/passwords" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Generate a second API password</button>
        </form>
        {{/mayAdd}}
        <h2>Webhook notifications</h2>
        {{#notificationSecret}}
        <dl>
        <dt>URL</dt><dd>{{notificationUrl}}</dd>
        <dt>Secret (<code>X-Notification-Secret</code>)</dt><dd><code>{{notificationSecret}}</code></dd>
        </dl>
        {{/notificationSecret}}
        {{^notificationSecret}}<p>Notifications are not configured for this merchant
        (<code>merchant.{{session.merchant}}.notifications.url</code> and <code>.secret</code>).</p>{{/notificationSecret}}
        {{#outbox}}
        <table>
        <caption>Delivery log: the latest notifications, newest first</caption>
        <thead><tr><th scope="col">Id</th><th scope="col">Order</th><th scope="col">Transaction</th><th scope="col">Status</th>
        <th scope="col">Attempts</th><th scope="col">Queued</th><th scope="col">Last error</th>{{#admin}}<th scope="col">Redeliver</th>{{/admin}}</tr></thead>
        <tbody>
        {{#notifications}}<tr><td>{{id}}</td><td><a href="/ma/orders/{{orderPath}}">{{order}}</a></td><td>{{transaction}}</td>
        <td>{{status}}</td><td>{{attempts}}</td><td>{{created}}</td><td>{{lastError}}</td>
        {{#admin}}<td><form method="post" action="/ma/integration/notifications/{{id}}/redeliver">
        <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" aria-label="Redeliver notification {{id}}">Redeliver</button>
        </form></td>{{/admin}}</tr>
        {{/notifications}}
        {{^notifications}}<tr><td colspan="8">No notifications yet.</td></tr>{{/notifications}}
        </tbody>
        </table>
        {{/outbox}}
        {{> footer}}
        """
}
