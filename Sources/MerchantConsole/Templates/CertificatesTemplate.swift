/// The Apple Pay certificate page: the merchant's payment processing keys with their expiry, a
/// new key and CSR, the upload of Apple's certificate, and retiring a key.
enum CertificatesTemplate {
    static let text = """
        {{> header}}
        <table>
        <caption>Payment processing identities</caption>
        <thead><tr><th scope="col">Merchant identifier</th><th scope="col">Key</th><th scope="col">Certificate expires</th>
        <th scope="col">CSR</th>{{#admin}}<th scope="col">Retire</th>{{/admin}}</tr></thead>
        <tbody>
        {{#identities}}<tr><td>{{merchantIdentifier}}</td><td>{{label}}</td>
        <td>{{#expires}}{{expires}}{{#warning}} <strong class="warning">expires within 30 days</strong>{{/warning}}{{/expires}}{{^expires}}awaiting Apple's certificate{{/expires}}</td>
        <td><a href="/ma/applepay/{{identifierPath}}/{{labelPath}}.certSigningRequest" download>{{label}}.certSigningRequest</a></td>
        {{#admin}}<td><form method="post" action="/ma/applepay/{{identifierPath}}/{{labelPath}}/retire">
        <input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" aria-label="Retire {{merchantIdentifier}} {{label}}">Retire</button>
        </form></td>{{/admin}}</tr>
        {{/identities}}
        {{^identities}}<tr><td colspan="5">No payment processing keys yet.</td></tr>{{/identities}}
        </tbody>
        </table>
        {{#admin}}
        <div class="actions">
        <form method="post" action="/ma/applepay/keys" class="stack">
        <h2>New key and CSR</h2>
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="newIdentifier">Apple merchant identifier</label>
        <input id="newIdentifier" name="merchantIdentifier" placeholder="merchant.com.example" required>
        <button type="submit">Create key and CSR</button>
        </form>
        <form method="post" action="/ma/applepay/certificates" enctype="multipart/form-data" class="stack">
        <h2>Install Apple's certificate</h2>
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="uploadIdentifier">Apple merchant identifier</label>
        <input id="uploadIdentifier" name="merchantIdentifier" placeholder="merchant.com.example" required>
        <label for="certificate">apple_pay.cer</label>
        <input id="certificate" name="certificate" type="file" accept=".cer,.pem" required>
        <button type="submit">Install certificate</button>
        </form>
        </div>
        <p>The private keys stay on the gateway's disk, where <code>gateway applepay-identity</code> keeps them
        ({{directory}}). An installed identity decrypts tokens once the configuration names it:</p>
        <pre>{{configuration}}</pre>
        {{/admin}}
        {{> footer}}
        """
}
