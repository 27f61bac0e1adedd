import Crypto
import Foundation
import GooglePaySandbox
import Testing

@testable import GooglePayToken

/// The decrypted message is read as strictly as Apple Pay's payment data: signed by Google or
/// not, a malformed card number or replay key does not get past the library.
@Suite("Message strictness")
struct MessageStrictnessTests {
    static let valid =
        #"{"messageId":"AH2E-1","messageExpiration":"4102444800000","paymentMethod":"CARD","#
        + #""paymentMethodDetails":{"authMethod":"PAN_ONLY","pan":"4111111111111111","expirationMonth":12,"expirationYear":2030}}"#

    static func replacing(_ old: String, with new: String) -> String {
        valid.replacingOccurrences(of: old, with: new)
    }

    @Test("the valid message reads, keeping unknown keys")
    func validMessage() throws {
        let message = try GooglePayMessage(jsonBytes: Array(Self.replacing(#""CARD","#, with: #""CARD","future":1,"#).utf8))
        #expect(message.messageId == "AH2E-1")
        #expect(message.paymentMethodDetails.pan == "4111111111111111")
        #expect(message.additionalFields["future"] == .integer(1))
    }

    @Test(
        "each malformed field is refused, naming the field",
        arguments: [
            (#""pan":"4111111111111111""#, #""pan":"41111111111""#, "paymentMethodDetails.pan"),
            (#""pan":"4111111111111111""#, #""pan":"4111 1111 1111 1111""#, "paymentMethodDetails.pan"),
            (#""pan":"4111111111111111""#, #""pan":"41111111111111111111""#, "paymentMethodDetails.pan"),
            (#""pan":"4111111111111111""#, #""pan":4111111111111111"#, "paymentMethodDetails.pan"),
            (#""expirationMonth":12"#, #""expirationMonth":13"#, "paymentMethodDetails.expirationMonth"),
            (#""expirationMonth":12"#, #""expirationMonth":0"#, "paymentMethodDetails.expirationMonth"),
            (#""expirationMonth":12"#, #""expirationMonth":"12""#, "paymentMethodDetails.expirationMonth"),
            (#""expirationMonth":12"#, #""expirationMonth":12.0"#, "paymentMethodDetails.expirationMonth"),
            (#""expirationYear":2030"#, #""expirationYear":30"#, "paymentMethodDetails.expirationYear"),
            (#""expirationYear":2030"#, #""expirationYear":20300"#, "paymentMethodDetails.expirationYear"),
            (#""messageId":"AH2E-1""#, #""messageId":"""#, "messageId"),
            (#""messageId":"AH2E-1""#, #""messageId":"AH2E 1""#, "messageId"),
            (#""messageId":"AH2E-1""#, #""messageId":"AH2E\n1""#, "messageId"),
            (#""messageExpiration":"4102444800000""#, #""messageExpiration":4102444800000"#, "messageExpiration"),
            (#""messageExpiration":"4102444800000""#, #""messageExpiration":"-4102444800000""#, "messageExpiration"),
            (#""messageExpiration":"4102444800000""#, #""messageExpiration":"2030-01-01""#, "messageExpiration"),
            (#""CARD","#, #""CARD","gatewayMerchantId":"","#, "gatewayMerchantId"),
            (#""PAN_ONLY","#, #""PAN_ONLY","cryptogram":"AJkBBkhgQQAAAE4gSEJydQAAAAA=","#, "paymentMethodDetails.cryptogram"),
            (#""PAN_ONLY","#, #""CRYPTOGRAM_3DS","#, "paymentMethodDetails.cryptogram"),
            (#""PAN_ONLY","#, #""CRYPTOGRAM_3DS","cryptogram":"not base64!","#, "paymentMethodDetails.cryptogram"),
            (#""PAN_ONLY","#, #""CRYPTOGRAM_3DS","cryptogram":"AJkB","eciIndicator":"123","#, "paymentMethodDetails.eciIndicator"),
        ]
    )
    func malformedField(old: String, new: String, field: String) {
        let text = Self.replacing(old, with: new)
        #expect(text != Self.valid)
        do {
            _ = try GooglePayMessage(jsonBytes: Array(text.utf8))
            Issue.record("accepted \(field)")
        } catch {
            #expect(error.code == .malformedMessage)
            #expect(error.field == field)
        }
    }

    @Test("another payment method or authentication method is unsupported, not malformed")
    func unsupported() {
        for text in [Self.replacing(#""CARD""#, with: #""TOKENIZED_CARD""#), Self.replacing(#""PAN_ONLY""#, with: #""PAN_AND_PIN""#)] {
            #expect(refusalCode { try GooglePayMessage(jsonBytes: Array(text.utf8)) } == .unsupportedPaymentMethod)
        }
    }

    @Test("a message that is not a JSON object, or repeats a key, is malformed")
    func notAnObject() {
        for text in ["[]", "plaintext", "", #"{"messageId":"a","messageId":"b"}"#, "\u{FEFF}{}"] {
            #expect(refusalCode { try GooglePayMessage(jsonBytes: Array(text.utf8)) } == .malformedMessage)
        }
    }
}
