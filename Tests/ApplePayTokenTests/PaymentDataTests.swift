import Testing

@testable import ApplePayToken

@Suite("Payment data")
struct PaymentDataTests {
    static let threeDSecure = """
        {"applicationPrimaryAccountNumber":"5204245250001488","applicationExpirationDate":"300630",\
        "currencyCode":"978","transactionAmount":1999,"paymentDataType":"3DSecure",\
        "paymentData":{"onlinePaymentCryptogram":"QUJDREVGR0hJSktMTU5PUA==","eciIndicator":"5","newKey":1},\
        "somethingNew":"kept"}
        """

    @Test("masks to six and four")
    func masking() {
        #expect(CardNumberMask.mask("5204245250001488") == "520424xxxxxx1488")
        #expect(CardNumberMask.mask("4111111111111111111") == "411111xxxxxxxxx1111")
        #expect(CardNumberMask.mask("1234") == "xxxx")
        #expect(CardNumberMask.mask("12345678901") == "123456x8901")
        #expect(CardNumberMask.mask("1234567890") == "xxxxxxxxxx")
        #expect(CardNumberMask.mask("") == "")
        // Anything but ASCII digits is masked by Characters: a combining accent stays with its digit.
        #expect(CardNumberMask.mask("5204 2452 5000 1488") == "5204 2xxxxxxxxx1488")
        #expect(CardNumberMask.mask("52042452500014\u{0301}88") == "520424xxxxxx14\u{0301}88")
        #expect(CardNumberMask.mask("\u{FF15}204245250001488") == "\u{FF15}20424xxxxxx1488")
    }

    @Test("jsonValue masks unless asked, and keeps unknown keys at both levels")
    func jsonValue() throws {
        let payment = try PaymentData(jsonBytes: Array(Self.threeDSecure.utf8))
        #expect(payment.jsonValue()["applicationPrimaryAccountNumber"] == .string("520424xxxxxx1488"))
        #expect(payment.jsonValue(unmasked: true)["applicationPrimaryAccountNumber"] == .string("5204245250001488"))
        #expect(payment.jsonValue()["somethingNew"] == .string("kept"))
        #expect(payment.jsonValue()["paymentData"]?["newKey"] == .integer(1))
        #expect(payment.eciIndicator == "5")
    }

    @Test("description never shows the PAN or the cryptogram")
    func description() throws {
        let payment = try PaymentData(jsonBytes: Array(Self.threeDSecure.utf8))
        #expect(!payment.description.contains("5204245250001488"))
        #expect(!payment.description.contains("QUJDREVGR0hJSktMTU5PUA=="))
        #expect(payment.description.contains("520424xxxxxx1488"))
    }

    @Test(
        "malformed payment data names the field",
        arguments: [
            (
                #"{"applicationExpirationDate":"300630","currencyCode":"978","transactionAmount":1,"paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"QUJD"}}"#,
                "applicationPrimaryAccountNumber"
            ),
            (
                #"{"applicationPrimaryAccountNumber":"5204245250001488","applicationExpirationDate":"300630","currencyCode":"978","transactionAmount":"1","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"QUJD"}}"#,
                "transactionAmount"
            ),
            (
                #"{"applicationPrimaryAccountNumber":"5204245250001488","applicationExpirationDate":"300630","currencyCode":"978","transactionAmount":1,"paymentDataType":"3DSecure","paymentData":{}}"#,
                "paymentData.onlinePaymentCryptogram"
            ),
            (
                #"{"applicationPrimaryAccountNumber":"5204245250001488","applicationExpirationDate":"300630","currencyCode":"978","transactionAmount":1,"paymentDataType":"Other","paymentData":{}}"#,
                "paymentDataType"
            ),
            (
                #"{"applicationPrimaryAccountNumber":"5204245250001488","applicationExpirationDate":"300630","currencyCode":"978","transactionAmount":1,"paymentDataType":"EMV","paymentData":{"emvData":"QUJD"},"authenticationResponses":[{"merchantIdentifier":"m"}]}"#,
                "authenticationResponses[0].authenticationData"
            ),
        ]
    )
    func malformed(json: String, field: String) {
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentData(jsonBytes: Array(json.utf8)) }
        #expect(error?.code == .malformedPaymentData)
        #expect(error?.field == field)
    }

    /// The values a hostile-input probe got approved through a trusted signer.
    @Test(
        "card numbers, expiry dates, amounts and currency codes outside Apple's formats are refused by field",
        arguments: [
            ("applicationPrimaryAccountNumber", #""4111abcd11111111""#),
            ("applicationPrimaryAccountNumber", #""41111""#),
            ("applicationPrimaryAccountNumber", #""""#),
            ("applicationPrimaryAccountNumber", "\"" + String(repeating: "4", count: 40) + "\""),
            ("applicationPrimaryAccountNumber", #""٤١١١١١١١١١١١١١١١""#),
            ("applicationPrimaryAccountNumber", #""4111111111111111\u0000""#),
            ("applicationPrimaryAccountNumber", #"" 4111111111111111""#),
            ("applicationPrimaryAccountNumber", "4111111111111111"),
            ("applicationExpirationDate", #""3012""#),
            ("applicationExpirationDate", #""301331""#),
            ("applicationExpirationDate", #""301200""#),
            ("applicationExpirationDate", #""300231""#),
            ("applicationExpirationDate", #""30123a""#),
            ("currencyCode", #""84""#),
            ("currencyCode", #""USD""#),
            ("currencyCode", #""8400""#),
            ("currencyCode", "840"),
            ("transactionAmount", "5656.0"),
            ("transactionAmount", "5.656e3"),
            ("transactionAmount", "-1"),
            ("transactionAmount", #""5656""#),
        ]
    )
    func outOfFormat(field: String, value: String) {
        var fields = [
            "applicationPrimaryAccountNumber": #""5204245250001488""#, "applicationExpirationDate": #""280229""#,
            "currencyCode": #""840""#, "transactionAmount": "5656",
        ]
        fields[field] = value
        let json =
            "{" + fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            + #","paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"QUJD"}}"#
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentData(jsonBytes: Array(json.utf8)) }
        #expect(error?.code == .malformedPaymentData)
        #expect(error?.field == field)
        #expect(error?.reason.contains("4111") == false, "the reason must not repeat the card number")
    }

    @Test("a leap day and 19-digit card numbers are within the formats")
    func edgesWithinFormat() throws {
        let json =
            #"{"applicationPrimaryAccountNumber":"4111111111111111111","applicationExpirationDate":"280229","currencyCode":"008","transactionAmount":0,"paymentDataType":"3DSecure","paymentData":{"onlinePaymentCryptogram":"QUJD"}}"#
        let payment = try PaymentData(jsonBytes: Array(json.utf8))
        #expect(payment.applicationExpirationDate == "280229")
        #expect(payment.transactionAmount == 0)
    }

    @Test("plaintext that is not a JSON object is rejected", arguments: ["", "[]", "42", "{"])
    func notAnObject(text: String) {
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentData(jsonBytes: Array(text.utf8)) }
        #expect(error?.code == .malformedPaymentData)
    }
}
