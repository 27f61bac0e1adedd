import Foundation
import Testing
import WireJSON

@testable import ApplePayToken

/// The decrypted payload's free-form fields are held to sane shapes before they travel on.
@Suite("Payment data bounds")
struct PaymentDataBoundsTests {
    static func payload(cryptogram: String = "AOm+7lPDSbobAGVT7hmNAoABFA==", eci: String? = "7", name: String? = nil) -> [UInt8] {
        var details: [String: Any] = ["onlinePaymentCryptogram": cryptogram]
        if let eci { details["eciIndicator"] = eci }
        var object: [String: Any] = [
            "applicationPrimaryAccountNumber": "5204245250001488", "applicationExpirationDate": "301231",
            "currencyCode": "840", "transactionAmount": 5656, "deviceManufacturerIdentifier": "040010030273",
            "paymentDataType": "3DSecure", "paymentData": details,
        ]
        if let name { object["cardholderName"] = name }
        return Array(try! JSONSerialization.data(withJSONObject: object))
    }

    @Test("a real-shaped payload is read")
    func valid() throws {
        let data = try PaymentData(jsonBytes: Self.payload(eci: "07", name: "Jane Appleseed"))
        #expect(data.eciIndicator == "07")
        #expect(data.cardholderName == "Jane Appleseed")
    }

    @Test(
        "each bound is named",
        arguments: [
            (payload(cryptogram: "not base64!"), "paymentData.onlinePaymentCryptogram"),
            (payload(cryptogram: Data(count: 65).base64EncodedString()), "paymentData.onlinePaymentCryptogram"),
            (payload(cryptogram: ""), "paymentData.onlinePaymentCryptogram"),
            (payload(eci: "123"), "paymentData.eciIndicator"),
            (payload(eci: "5a"), "paymentData.eciIndicator"),
            (payload(eci: ""), "paymentData.eciIndicator"),
            (payload(name: String(repeating: "a", count: 129)), "cardholderName"),
            (payload(name: "Jane\u{0}Appleseed"), "cardholderName"),
            (payload(name: "Jane\nAppleseed"), "cardholderName"),
        ]
    )
    func refused(payload: [UInt8], field: String) {
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentData(jsonBytes: payload) }
        #expect(error?.code == .malformedPaymentData)
        #expect(error?.field == field)
    }

    @Test("a repeated key is an error in payment data, tokens and any JSON the gateway reads")
    func duplicateKeys() {
        let text = String(decoding: Self.payload(), as: UTF8.self)
        let repeated = text.replacingOccurrences(
            of: "{",
            with: "{\"currencyCode\":\"978\",",
            options: [],
            range: text.startIndex..<text.index(after: text.startIndex)
        )
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentData(jsonBytes: Array(repeated.utf8)) }
        #expect(error?.reason.contains("repeats the key \"currencyCode\"") == true)

        let token = #"{"version":"EC_v1","version":"RSA_v1","data":"AAAA","signature":"AAAA","header":{}}"#
        let tokenError = #expect(throws: ApplePayTokenError.self) { try PaymentToken(parsing: token) }
        #expect(tokenError?.reason.contains("repeats the key \"version\"") == true)

        let syntax = #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: Array(#"{"a":{"b":1,"b":2}}"#.utf8)) }
        #expect(syntax?.duplicateKey == "b")
        #expect((try? JSONValue(parsing: Array(#"{"a":{"b":1},"b":2}"#.utf8))) != nil)
    }
}
