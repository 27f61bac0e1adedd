import Foundation
import WireJSON

/// The seed inputs, from the repository's real examples (read from `--root`, the package's folder)
/// and, where those live in Swift test code, rebuilt here in the same shapes.
struct Seeds {
    let root: URL

    func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    func files(in folder: String, suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(suffix) }.sorted().map { "\(folder)/\($0)" }
    }

    /// The vectors' files named `name`, for the vectors that have one (not every vector carries
    /// every file); a file that is there but cannot be read is an error.
    func vectorFiles(named name: String) throws -> [[UInt8]] {
        let folder = "Tests/ApplePayTokenTests/Fixtures/conformance/vectors"
        return try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path).sorted()
            .map { "\(folder)/\($0)/\(name)" }
            .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
            .map(file)
    }

    /// The Apple Pay conformance tokens (real Apple-signed ones among them).
    func tokens() throws -> [[UInt8]] { try vectorFiles(named: "token.json") }

    // MARK: MPGS JSON

    /// Every request of the request corpus (public clients and the API reference), then every
    /// body of the Postman collection with its variables filled in.
    func transactionBodies() throws -> [[UInt8]] {
        var bodies: [[UInt8]] = []
        for path in try files(in: "Tests/GatewayTests/Fixtures/request-corpus", suffix: ".json") {
            guard case .array(let requests)? = try JSONValue(parsing: file(path))["requests"] else { continue }
            bodies += requests.map { $0.serialized() }
        }
        let token = String(decoding: try tokens().first ?? Array("{}".utf8), as: UTF8.self)
        let collection = try JSONSerialization.jsonObject(with: Data(file("Deploy/postman/gateway-sandbox.postman_collection.json")))
        for raw in Self.rawBodies(collection) {
            var text = raw.replacingOccurrences(of: "{{paymentTokenJson}}", with: token)
            while let open = text.range(of: "{{"), let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
                text.replaceSubrange(open.lowerBound..<close.upperBound, with: text[open.upperBound..<close.lowerBound])
            }
            bodies.append(Array(text.utf8))
        }
        return bodies
    }

    private static func rawBodies(_ item: Any) -> [String] {
        if let list = item as? [Any] { return list.flatMap(rawBodies) }
        guard let object = item as? [String: Any] else { return [] }
        if let body = object["body"] as? [String: Any], let raw = body["raw"] as? String { return [raw] }
        return object.values.flatMap(rawBodies)
    }

    // MARK: Radial XML

    /// The requests of Tests/GatewayTests/Support/RadialRequests.swift (the SDK's card request,
    /// seed 002's wallet request, Decrypt), with a conformance token's parts, and the reader's own
    /// test documents' constructs (prefixes, CDATA, comments, references).
    func radialDocuments() throws -> [[UInt8]] {
        let token = try tokens().map { try JSONValue(parsing: $0) }.first { $0["header"] != nil } ?? .object([:])
        let header = token["header"]
        let wallet = """
               <WalletPaymentInformation>
                 <ApplePayTransactionId>\(header?["transactionId"]?.stringValue ?? "")</ApplePayTransactionId>
                 <EphemeralPublicKey>\(header?["ephemeralPublicKey"]?.stringValue ?? "")</EphemeralPublicKey>
                 <PublicKeyHash>\(header?["publicKeyHash"]?.stringValue ?? "")</PublicKeyHash>
                 <Version>\(token["version"]?.stringValue ?? "")</Version>
                 <Data>\(token["data"]?.stringValue ?? "")</Data>
                 <Signature>\(token["signature"]?.stringValue ?? "")</Signature>
               </WalletPaymentInformation>
            """
        let namespace = "http://api.gsicommerce.com/schema/checkout/1.0"
        let address = """
            <Line1>Street 1</Line1><Line2>Street 2</Line2><City>King of Prussia</City>
            <MainDivision>PA</MainDivision><CountryCode>US</CountryCode><PostalCode>19406</PostalCode>
            """
        let card = """
            <?xml version="1.0" encoding="UTF-8"?>
            <CreditCardAuthRequest requestId="739a45ba35" xmlns="\(namespace)">
                <PaymentContext>
                    <OrderId>order-1</OrderId>
                    <PaymentAccountUniqueId isToken="false">4111111111111111</PaymentAccountUniqueId>
                </PaymentContext>
                <ExpirationDate>2039-01</ExpirationDate>
                <CardSecurityCode>123</CardSecurityCode>
                <Amount currencyCode="USD">43.45</Amount>
                <BillingFirstName>First</BillingFirstName>
                <BillingLastName>Last</BillingLastName>
                <BillingPhoneNo>123-456-7890</BillingPhoneNo>
                <BillingAddress>\(address)</BillingAddress>
                <CustomerEmail>test@example.com</CustomerEmail>
                <CustomerIPAddress>127.0.0.1</CustomerIPAddress>
                <ShipToFirstName>First</ShipToFirstName>
                <ShipToLastName>Last</ShipToLastName>
                <ShipToPhoneNo>123-456-7890</ShipToPhoneNo>
                <ShippingAddress>\(address)</ShippingAddress>
                <isRequestToCorrectCVVOrAVSError>false</isRequestToCorrectCVVOrAVSError>
                <SecureVerificationData>
                    <AuthenticationAvailable>Y</AuthenticationAvailable>
                    <AuthenticationStatus>Y</AuthenticationStatus>
                    <CavvUcaf>abcd1234</CavvUcaf>
                    <TransactionId>transId</TransactionId>
                    <ECI>ECI</ECI>
                    <PayerAuthenticationResponse>some REALLY big string</PayerAuthenticationResponse>
                </SecureVerificationData>
                <SchemaVersion>1.1</SchemaVersion>
            </CreditCardAuthRequest>
            """
        let walletAuth = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <CreditCardAuthRequest xmlns="\(namespace)" requestId="1234567">
            \(wallet)
               <OrderId>order-2</OrderId>
               <Amount currencyCode="USD">12.00</Amount>
               <BillingFirstName>John</BillingFirstName>
               <BillingLastName>Smith</BillingLastName>
               <BillingAddress>\(address)</BillingAddress>
               <CustomerEmail>customer@sample.com</CustomerEmail>
            </CreditCardAuthRequest>
            """
        let decrypt = """
            <?xml version="1.0" encoding="UTF-8"?>
            <DecryptRequest xmlns="\(namespace)" requestId="decrypt-1">
            \(wallet)
            </DecryptRequest>
            """
        let constructs = """
            \u{FEFF}<?xml version="1.0"?>
            <!-- a comment -->
            <p:CreditCardAuthRequest xmlns:p="\(namespace)" xmlns:x="urn:x" p:requestId='a&amp;b' x:y="&#x41;&#66;&lt;">
              <p:OrderId><![CDATA[<not markup> ]] ]]></p:OrderId>
              <OrderId xmlns="">text &quot;&apos;&gt;\r\n more</OrderId>
              <p:Amount currencyCode="USD">1.00<!-- c -->0</p:Amount>
              <empty/>
            </p:CreditCardAuthRequest>
            """
        return [card, walletAuth, decrypt, constructs].map { Array($0.utf8) }
    }

    // MARK: The console's forms

    /// Forms as the console's pages post them (field names from its templates, values as a
    /// browser encodes them), and the order search's query strings.
    func consoleForms() -> [[UInt8]] {
        let csrf = "csrf=3q2%2B7wAAAAAAAAAAAAAAAA_-"
        return [
            "merchant=TESTMERCHANT&name=operator%40example.com&password=correct+horse+%C3%A9t%C3%A9&csrf=x",
            "\(csrf)&operation=CAPTURE&amount=12.50&transactionId=capture-1",
            "\(csrf)&operation=REFUND&amount=0.01&currency=USD&transactionId=refund-%E2%82%AC",
            "orderId=INV%3A2024-001&from=2024-01-31&to=2026-12-01&status=CAPTURED&minAmount=1.00&maxAmount=99999.99&last4=0008&wallet=APPLE_PAY&page=2",
            "orderId=a%2Fb&status=&minAmount=&page=1",
            "\(csrf)&merchantIdentifier=merchant.com.example&target=https%3A%2F%2Fshop.example%2Fhook%3Fa%3Db%26c",
        ].map { Array($0.utf8) }
    }

    /// Multipart bodies as Chromium and curl send the certificate upload: the Content-Type
    /// header's value on the first line, then the body. The certificate is a real PEM from the
    /// vectors.
    func multipartForms() throws -> [[UInt8]] {
        let certificate = try vectorFiles(named: "certificate.pem").first ?? Array("-----BEGIN CERTIFICATE-----".utf8)
        func form(_ boundary: String, _ contentType: String, fileName: String, fileType: String) -> [UInt8] {
            var body = Array("\(contentType)\r\n".utf8)
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n3q2+7wAAAAAAAA\r\n".utf8)
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"merchantIdentifier\"\r\n\r\nmerchant.com.example\r\n".utf8)
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"certificate\"; filename=\"\(fileName)\"\r\n".utf8)
            body += Array("Content-Type: \(fileType)\r\n\r\n".utf8) + certificate + Array("\r\n--\(boundary)--\r\n".utf8)
            return body
        }
        let chromium = "----WebKitFormBoundary7MA4YWxkTrZu0gW"
        let curl = "------------------------d74496d66958873e"
        return [
            form(chromium, "multipart/form-data; boundary=\(chromium)", fileName: "apple_pay.cer", fileType: "application/pkix-cert"),
            form(curl, "multipart/form-data; boundary=\"\(curl)\"; charset=utf-8", fileName: "cert.pem", fileType: "application/octet-stream"),
        ]
    }

    // MARK: HTTP/1 heads

    /// Request heads as curl, Chromium, Python and the PHP/Java clients of the integration guide
    /// send them, with bodies; pipelined, chunked and HTTP/1.0 ones too.
    func httpRequests(jsonBody: [UInt8]) -> [[UInt8]] {
        let json = String(decoding: jsonBody, as: UTF8.self)
        let auth = "Authorization: Basic bWVyY2hhbnQuVEVTVE1FUkNIQU5UOjAwMTEyMjMzNDQ1NTY2Nzc4ODk5YWFiYmNjZGRlZWZm\r\n"
        let path = "/api/rest/version/100/merchant/TESTMERCHANT/order/o-1/transaction/t-1"
        return [
            "PUT \(path) HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n\(auth)Content-Type: application/json\r\nContent-Length: \(jsonBody.count)\r\n\r\n\(json)",
            "GET /ma/orders?orderId=INV%3A2024-001&page=2 HTTP/1.1\r\nHost: localhost:8080\r\nConnection: keep-alive\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0\r\nAccept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: gzip, deflate, br\r\nAccept-Language: en-GB,en;q=0.9\r\nCookie: ma_session=abc; other=1\r\n\r\n",
            "POST /ma/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 46\r\nOrigin: http://localhost\r\n\r\nmerchant=TESTMERCHANT&name=admin&password=x+y&",
            "PUT \(path) HTTP/1.1\r\nHost: localhost\r\nUser-Agent: python-requests/2.31.0\r\nAccept-Encoding: gzip, deflate\r\nConnection: keep-alive\r\n\(auth)Transfer-Encoding: chunked\r\n\r\n\(String(jsonBody.count, radix: 16))\r\n\(json)\r\n0\r\n\r\n",
            "GET /api/rest/version/100/information HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\nGET /readyz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
            "GET http://localhost:8080/metrics HTTP/1.0\r\nHost: localhost:8080\r\n\r\n",
            "POST /radial/payment/TESTMERCHANT/creditcard/auth HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: 5\r\n\r\n<a/>\n",
            "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n",
        ].map { Array($0.utf8) }
    }
}
