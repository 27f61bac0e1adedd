import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

@testable import Gateway
@testable import MPGSAPI
@testable import RadialAPI

/// One exchange with the Radial-style API, its body read back with the gateway's own XML reader.
struct RadialExchange {
    var status: HTTPResponse.Status
    var contentType: String?
    var body: String
    var root: XMLElement?

    /// The text at a slash path under the root (`PaymentContext/OrderId`).
    func text(_ path: String) -> String? {
        element(path)?.text
    }

    func element(_ path: String) -> XMLElement? {
        var current = root
        for name in path.split(separator: "/") { current = current?.child(String(name)) }
        return current
    }

    /// The names of the root's children, in order.
    var childNames: [String] { root?.children.map(\.name) ?? [] }
}

enum Radial {
    static func authPath(store: String = TestGateway.merchantId) -> String {
        "/v1.0/stores/\(store)/payments/creditcard/auth.xml"
    }

    static func decryptPath(store: String = TestGateway.merchantId) -> String {
        "/v1.0/stores/\(store)/payments/applepay/decrypt.xml"
    }

    /// The parts of a minted token, as a Radial client puts them into `WalletPaymentInformation`.
    struct WalletParts {
        var transactionId: String
        var ephemeralPublicKey: String
        var publicKeyHash: String
        var version: String
        var data: String
        var signature: String

        init(token: String) throws {
            let object = try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any] ?? [:]
            let paymentData = object["paymentData"] as? [String: Any] ?? object
            let header = paymentData["header"] as? [String: Any] ?? [:]
            transactionId = header["transactionId"] as? String ?? ""
            ephemeralPublicKey = header["ephemeralPublicKey"] as? String ?? ""
            publicKeyHash = header["publicKeyHash"] as? String ?? ""
            version = paymentData["version"] as? String ?? ""
            data = paymentData["data"] as? String ?? ""
            signature = paymentData["signature"] as? String ?? ""
        }

        var xml: String {
            """
               <WalletPaymentInformation>
                 <ApplePayTransactionId>\(transactionId)</ApplePayTransactionId>
                 <EphemeralPublicKey>\(ephemeralPublicKey)</EphemeralPublicKey>
                 <PublicKeyHash>\(publicKeyHash)</PublicKeyHash>
                 <Version>\(version)</Version>
                 <Data>\(data)</Data>
                 <Signature>\(signature)</Signature>
               </WalletPaymentInformation>
            """
        }
    }

    static let customer = """
           <BillingFirstName>John</BillingFirstName>
           <BillingLastName>Smith</BillingLastName>
           <BillingPhoneNo>6101234567</BillingPhoneNo>
           <BillingAddress>
              <Line1>123 Main St</Line1>
              <Line2>Building 123</Line2>
              <Line3>4th Floor</Line3>
              <Line4>Apt 12</Line4>
              <City>Philadelphia</City>
              <MainDivision>PA</MainDivision>
              <CountryCode>US</CountryCode>
              <PostalCode>19019</PostalCode>
           </BillingAddress>
           <CustomerEmail>customer@sample.com</CustomerEmail>
           <CustomerIPAddress>208.247.73.130</CustomerIPAddress>
           <ShipToFirstName>John</ShipToFirstName>
           <ShipToLastName>Smith</ShipToLastName>
           <ShipToPhoneNo>6101234567</ShipToPhoneNo>
           <ShippingAddress>
              <Line1>123 Main St</Line1>
              <Line2>Building 123</Line2>
              <Line3>4th Floor</Line3>
              <Line4>Apt 12</Line4>
              <City>Philadelphia</City>
              <MainDivision>PA</MainDivision>
              <CountryCode>US</CountryCode>
              <PostalCode>19019</PostalCode>
           </ShippingAddress>
        """

    /// Seed 002's "Credit Card Auth API" request example, with a sandbox token's parts in place
    /// of the sample's (whose signature is Apple's, long expired, for another merchant).
    static func seedWalletRequest(
        _ parts: WalletParts,
        orderId: String,
        requestId: String = "1234567",
        amount: String? = nil,
        schemaVersion: String? = nil
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <CreditCardAuthRequest xmlns="http://api.gsicommerce.com/schema/checkout/1.0" requestId="\(requestId)">
        \(parts.xml)
           <OrderId>\(orderId)</OrderId>
        \(amount.map { "   <Amount currencyCode=\"USD\">\($0)</Amount>" } ?? "")
        \(customer)
        \(schemaVersion.map { "   <SchemaVersion>\($0)</SchemaVersion>" } ?? "")
        </CreditCardAuthRequest>
        """
    }

    /// Shaped like the public SDK's test fixture
    /// `tests/eBayEnterprise/RetailOrderManagement/Payload/Payment/Fixtures/UnencryptedCardData/CreditCardAuthRequest.xml`
    /// (RadialCorp/RetailOrderManagement-SDK): the card-data request the SDK sends.
    static func sdkCardRequest(
        orderId: String,
        requestId: String = "739a45ba35",
        amount: String = "43.45",
        expiry: String = "2039-01",
        securityCode: String = "123",
        schemaVersion: String? = nil
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <CreditCardAuthRequest requestId="\(requestId)" xmlns="http://api.gsicommerce.com/schema/checkout/1.0">
            <PaymentContext>
                <OrderId>\(orderId)</OrderId>
                <PaymentAccountUniqueId isToken="false">4111111111111111</PaymentAccountUniqueId>
            </PaymentContext>
            <ExpirationDate>\(expiry)</ExpirationDate>
            <CardSecurityCode>\(securityCode)</CardSecurityCode>
            <Amount currencyCode="USD">\(amount)</Amount>
            <BillingFirstName>First</BillingFirstName>
            <BillingLastName>Last</BillingLastName>
            <BillingPhoneNo>123-456-7890</BillingPhoneNo>
            <BillingAddress>
                <Line1>Street 1</Line1>
                <Line2>Street 2</Line2>
                <Line3>Street 3</Line3>
                <Line4>Street 4</Line4>
                <City>King of Prussia</City>
                <MainDivision>PA</MainDivision>
                <CountryCode>US</CountryCode>
                <PostalCode>19406</PostalCode>
            </BillingAddress>
            <CustomerEmail>test@example.com</CustomerEmail>
            <CustomerIPAddress>127.0.0.1</CustomerIPAddress>
            <ShipToFirstName>First</ShipToFirstName>
            <ShipToLastName>Last</ShipToLastName>
            <ShipToPhoneNo>123-456-7890</ShipToPhoneNo>
            <ShippingAddress>
                <Line1>Street 1</Line1>
                <Line2>Street 2</Line2>
                <Line3>Street 3</Line3>
                <Line4>Street 4</Line4>
                <City>King of Prussia</City>
                <MainDivision>PA</MainDivision>
                <CountryCode>US</CountryCode>
                <PostalCode>19406</PostalCode>
            </ShippingAddress>
            <isRequestToCorrectCVVOrAVSError>false</isRequestToCorrectCVVOrAVSError>
            <SecureVerificationData>
                <AuthenticationAvailable>Y</AuthenticationAvailable>
                <AuthenticationStatus>Y</AuthenticationStatus>
                <CavvUcaf>abcd1234</CavvUcaf>
                <TransactionId>transId</TransactionId>
                <ECI>ECI</ECI>
                <PayerAuthenticationResponse>some REALLY big string</PayerAuthenticationResponse>
            </SecureVerificationData>
        \(schemaVersion.map { "    <SchemaVersion>\($0)</SchemaVersion>" } ?? "")
        </CreditCardAuthRequest>
        """
    }

    static func decryptRequest(_ parts: WalletParts, requestId: String = "decrypt-1") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <DecryptRequest xmlns="http://api.gsicommerce.com/schema/checkout/1.0" requestId="\(requestId)">
        \(parts.xml)
        </DecryptRequest>
        """
    }
}

extension TestClientProtocol {
    func radial(
        _ path: String,
        _ xml: String,
        apiKey: String? = TestGateway.password,
        contentType: String? = "text/xml"
    ) async throws -> RadialExchange {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        if let apiKey { headers[HTTPField.Name("apikey")!] = apiKey }
        return try await execute(
            uri: path,
            method: .post,
            headers: headers,
            body: ByteBuffer(bytes: Array(xml.utf8))
        ) { response in
            let text = String(buffer: response.body)
            return RadialExchange(
                status: response.status,
                contentType: response.headers[.contentType],
                body: text,
                root: try? XMLReader.parse(Array(text.utf8))
            )
        }
    }
}
