/// The order search: the filters as a GET form (bookmarkable), the page of orders, paging links.
enum OrdersTemplate {
    static let text = """
        {{> header}}
        <form method="get" action="/ma/orders" class="filters" aria-label="Search orders">
        <div><label for="orderId">Order ID</label><input id="orderId" name="orderId" value="{{query.orderId}}"></div>
        <div><label for="from">Created from</label><input id="from" name="from" type="date" value="{{query.from}}"></div>
        <div><label for="to">Created to</label><input id="to" name="to" type="date" value="{{query.to}}"></div>
        <div><label for="status">Status</label><select id="status" name="status">
        <option value="">Any</option>
        {{#statuses}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{value}}</option>{{/statuses}}
        </select></div>
        <div><label for="minAmount">Amount from</label><input id="minAmount" name="minAmount" inputmode="decimal" value="{{query.minAmount}}"></div>
        <div><label for="maxAmount">Amount to</label><input id="maxAmount" name="maxAmount" inputmode="decimal" value="{{query.maxAmount}}"></div>
        <div><label for="last4">Card last four</label><input id="last4" name="last4" inputmode="numeric" maxlength="4" value="{{query.last4}}"></div>
        <div><label for="wallet">Wallet</label><select id="wallet" name="wallet">
        <option value="">Any</option>
        <option value="APPLE_PAY"{{#query.applePay}} selected{{/query.applePay}}>APPLE_PAY</option>
        </select></div>
        <div><button type="submit">Search</button></div>
        </form>
        <table>
        <caption>Orders, newest first (page {{page}})</caption>
        <thead><tr><th scope="col">Order</th><th scope="col">Created</th><th scope="col">Status</th>
        <th scope="col">Amount</th><th scope="col">Captured</th><th scope="col">Refunded</th><th scope="col">Wallet</th></tr></thead>
        <tbody>
        {{#orders}}<tr><td><a href="/ma/orders/{{link}}">{{orderId}}</a></td><td>{{created}}</td><td>{{status}}</td>
        <td>{{amount}}</td><td>{{captured}}</td><td>{{refunded}}</td><td>{{wallet}}</td></tr>
        {{/orders}}
        {{^orders}}<tr><td colspan="7">No orders match.</td></tr>{{/orders}}
        </tbody>
        </table>
        <nav aria-label="Pages" class="pages">
        {{#previous}}<a href="/ma/orders?{{previous}}" rel="prev">Newer</a>{{/previous}}
        {{#next}}<a href="/ma/orders?{{next}}" rel="next">Older</a>{{/next}}
        </nav>
        {{> footer}}
        """
}
