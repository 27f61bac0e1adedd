/// One order: its totals, every transaction with its 3-D Secure authentication, its request as
/// the gateway read it and the stored (masked) response, and the CAPTURE, VOID and REFUND forms
/// for admins. Each form carries a transaction id made when the page was rendered, so submitting
/// it twice is one transaction.
enum OrderTemplate {
    static let text = """
        {{> header}}
        <section aria-labelledby="totals">
        <h2 id="totals">Totals</h2>
        <dl class="totals">
        <dt>Status</dt><dd>{{order.status}}</dd>
        <dt>Amount</dt><dd>{{order.amount}}</dd>
        <dt>Authorized</dt><dd>{{order.authorized}}</dd>
        <dt>Captured</dt><dd>{{order.captured}}</dd>
        <dt>Refunded</dt><dd>{{order.refunded}}</dd>
        <dt>Wallet</dt><dd>{{order.wallet}}</dd>
        <dt>Created</dt><dd>{{order.created}}</dd>
        </dl>
        </section>
        {{#risk}}
        <section aria-labelledby="risk">
        <h2 id="risk">Risk assessment</h2>
        <dl class="totals">
        <dt>Risk result</dt><dd>{{gatewayCode}}</dd>
        <dt>Review decision</dt><dd>{{decision}}</dd>
        {{#rule}}<dt>Rule</dt><dd>{{rule}}</dd>{{/rule}}
        <dt>Score</dt><dd>{{score}}</dd>
        {{#reviewedBy}}<dt>Reviewed by</dt><dd>{{reviewedBy}}</dd>{{/reviewedBy}}
        </dl>
        {{#reviewable}}
        <div class="actions">
        <form method="post" action="/ma/orders/{{link}}/risk-accept" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Accept payment</button>
        </form>
        <form method="post" action="/ma/orders/{{link}}/risk-reject" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Reject payment</button>
        </form>
        </div>
        {{/reviewable}}
        </section>
        {{/risk}}
        {{#admin}}
        <section aria-labelledby="actions">
        <h2 id="actions">Actions</h2>
        <div class="actions">
        <form method="post" action="/ma/orders/{{link}}/capture" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="transactionId" value="{{captureId}}">
        <label for="captureAmount">Capture amount ({{order.currency}})</label>
        <input id="captureAmount" name="amount" inputmode="decimal" required>
        <button type="submit">Capture</button>
        </form>
        <form method="post" action="/ma/orders/{{link}}/refund" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="transactionId" value="{{refundId}}">
        <label for="refundAmount">Refund amount ({{order.currency}})</label>
        <input id="refundAmount" name="amount" inputmode="decimal" required>
        <button type="submit">Refund</button>
        </form>
        <form method="post" action="/ma/orders/{{link}}/void" class="stack">
        <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="transactionId" value="{{voidId}}">
        <label for="voidTarget">Transaction to void</label>
        <select id="voidTarget" name="target">{{#transactions}}<option value="{{id}}">{{id}} ({{type}})</option>{{/transactions}}</select>
        <button type="submit">Void</button>
        </form>
        </div>
        </section>
        {{/admin}}
        <section aria-labelledby="transactions">
        <h2 id="transactions">Transactions</h2>
        {{#transactions}}
        <article class="transaction">
        <h3>{{id}}: {{type}} {{amount}}{{#voided}} (voided){{/voided}}</h3>
        <dl>
        <dt>Result</dt><dd>{{result}}</dd>
        <dt>Gateway code</dt><dd>{{gatewayCode}}</dd>
        <dt>Acquirer</dt><dd>{{acquirerCode}} {{acquirerMessage}}</dd>
        <dt>Authorization code</dt><dd>{{authorizationCode}}</dd>
        <dt>Receipt</dt><dd>{{receipt}}</dd>
        <dt>Card</dt><dd>{{card}}</dd>
        {{#device}}<dt>Device number</dt><dd>{{number}} exp. {{expiry}} ({{format}})</dd>{{/device}}
        {{#browserPayment}}<dt>Browser payment</dt><dd>{{provider}}, interaction {{status}} {{returned}}{{#confirmation}}, {{confirmation}}{{/confirmation}}</dd>{{/browserPayment}}
        {{#agreement}}<dt>Agreement</dt><dd>{{id}} {{type}}{{#referenceOrderId}}, follows order {{referenceOrderId}}{{/referenceOrderId}}, card {{storedOnFile}}</dd>{{/agreement}}
        <dt>Source</dt><dd>{{source}}</dd>
        <dt>Time</dt><dd>{{time}}</dd>
        </dl>
        {{#authentication}}
        <h4>3-D Secure authentication</h4>
        <dl>
        <dt>{{idLabel}}</dt><dd>{{transactionId}}</dd>
        <dt>Status</dt><dd>{{status}}</dd>
        <dt>Version</dt><dd>{{version}} {{protocolVersion}}</dd>
        <dt>ECI</dt><dd>{{eci}}</dd>
        <dt>{{statusLabel}}</dt><dd>{{transStatus}}</dd>
        <dt>{{transactionIdLabel}}</dt><dd>{{threeDSTransactionId}}</dd>
        <dt>DS transaction id</dt><dd>{{dsTransactionId}}</dd>
        </dl>
        {{/authentication}}
        {{#transactionRisk}}
        <h4>Risk assessment</h4>
        <dl>
        <dt>Risk result</dt><dd>{{gatewayCode}}</dd>
        <dt>Review decision</dt><dd>{{decision}}</dd>
        {{#rule}}<dt>Rule</dt><dd>{{rule}}</dd>{{/rule}}
        </dl>
        {{/transactionRisk}}
        {{#request}}
        <details><summary>Request (as the gateway read it; card data masked, secrets never stored)</summary>
        <dl>
        <dt>apiOperation</dt><dd>{{operation}}</dd>
        {{#requestAmount}}<dt>Amount</dt><dd>{{requestAmount}}</dd>{{/requestAmount}}
        {{#target}}<dt>Target transaction</dt><dd>{{target}}</dd>{{/target}}
        {{#reference}}<dt>Transaction reference</dt><dd>{{reference}}</dd>{{/reference}}
        <dt>Card</dt><dd>{{requestCard}}{{#cardExpiry}} exp. {{cardExpiry}}{{/cardExpiry}}{{#nameOnCard}}, {{nameOnCard}}{{/nameOnCard}}</dd>
        {{#requestDevice}}<dt>Device number</dt><dd>{{number}} exp. {{expiry}} ({{format}})</dd>{{/requestDevice}}
        <dt>Source</dt><dd>{{requestSource}}</dd>
        {{#authenticationId}}<dt>Authentication transaction</dt><dd>{{authenticationId}}</dd>{{/authenticationId}}
        </dl>
        {{#fields}}<p>Other fields, as received:</p><pre>{{fields}}</pre>{{/fields}}
        </details>
        {{/request}}
        <details><summary>Response (as returned, masked)</summary><pre>{{response}}</pre></details>
        </article>
        {{/transactions}}
        </section>
        {{> footer}}
        """
}
