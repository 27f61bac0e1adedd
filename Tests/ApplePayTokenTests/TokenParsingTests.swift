import Foundation
import Testing
import WireJSON

@testable import ApplePayToken

@Suite("Token parsing")
struct TokenParsingTests {
    static var valid: [String: Any] {
        [
            "version": "EC_v1",
            "data": Data(repeating: 7, count: 40).base64EncodedString(),
            "signature": Data([0x30, 0x80, 0, 0]).base64EncodedString(),
            "header": [
                "ephemeralPublicKey": Data(repeating: 1, count: 91).base64EncodedString(),
                "publicKeyHash": Data(repeating: 2, count: 32).base64EncodedString(),
                "transactionId": "00ff10",
            ],
        ]
    }

    func parse(_ mutate: (inout [String: Any]) -> Void) throws -> PaymentToken {
        var object = Self.valid
        mutate(&object)
        let data = try JSONSerialization.data(withJSONObject: object)
        return try PaymentToken(parsing: String(decoding: data, as: UTF8.self))
    }

    func header(_ object: inout [String: Any], _ key: String, _ value: Any?) {
        var header = object["header"] as! [String: Any]
        header[key] = value
        object["header"] = header
    }

    @Test("a token from its text fields is the token its JSON gives, with the same checks and field names")
    func fromTextFields() throws {
        let valid = Self.valid
        let header = valid["header"] as! [String: String]
        func fields(_ mutate: (inout PaymentToken.TextFields) -> Void = { _ in }) -> PaymentToken.TextFields {
            var fields = PaymentToken.TextFields(
                version: valid["version"] as? String,
                data: valid["data"] as? String,
                signature: valid["signature"] as? String,
                header: .init(
                    ephemeralPublicKey: header["ephemeralPublicKey"],
                    publicKeyHash: header["publicKeyHash"],
                    transactionId: header["transactionId"]
                )
            )
            mutate(&fields)
            return fields
        }
        #expect(try PaymentToken(fields: fields()) == parse { _ in })
        #expect(throws: ApplePayTokenError.self) { try PaymentToken(fields: fields { $0.header?.publicKeyHash = nil }) }
        do {
            _ = try PaymentToken(fields: fields { $0.header?.transactionId = "not hex" })
            Issue.record("a transactionId that is not hex was accepted")
        } catch {
            #expect(error.field == "header.transactionId")
        }
        do {
            _ = try PaymentToken(fields: fields { $0.header?.wrappedKey = "AAAA" })
            Issue.record("an EC_v1 token with a wrappedKey was accepted")
        } catch {
            #expect(error.field == "header.wrappedKey")
        }
    }

    @Test("a valid token decodes every field")
    func valid() throws {
        let token = try parse { _ in }
        #expect(token.version == .ecV1)
        #expect(token.data.count == 40)
        #expect(token.header.transactionId == "00ff10")
        #expect(token.header.transactionIdBytes == [0x00, 0xFF, 0x10])
        #expect(token.header.publicKeyHash == [UInt8](repeating: 2, count: 32))
        #expect(token.signedContent.count == 91 + 40 + 3)
    }

    @Test(
        "each malformed field is named",
        arguments: [
            ("version", "version"), ("data", "data"), ("signature", "signature"), ("header", "header"),
        ]
    )
    func missingTopLevelField(key: String, field: String) throws {
        let error = #expect(throws: ApplePayTokenError.self) { try parse { $0[key] = nil } }
        #expect(error?.code == .malformedToken)
        #expect(error?.field == field)
    }

    @Test(
        "each malformed header field is named",
        arguments: [
            ("publicKeyHash", JSONValue.string("not base64!")), ("publicKeyHash", .string(Data(count: 20).base64EncodedString())),
            ("transactionId", .string("xyz")), ("transactionId", .integer(42)), ("applicationData", .string("abcd")),
            ("ephemeralPublicKey", .null), ("wrappedKey", .string("AAAA")),
        ] as [(String, JSONValue)]
    )
    func malformedHeaderField(key: String, value: JSONValue) throws {
        let plain: Any? =
            switch value {
            case .string(let text): text
            case .integer(let number): number
            default: nil
            }
        let error = #expect(throws: ApplePayTokenError.self) { try parse { header(&$0, key, plain) } }
        #expect(error?.code == .malformedToken)
        #expect(error?.field == "header.\(key)")
    }

    @Test("an unknown version is its own error")
    func unsupportedVersion() throws {
        let error = #expect(throws: ApplePayTokenError.self) { try parse { $0["version"] = "EC_v2" } }
        #expect(error?.code == .unsupportedVersion)
    }

    @Test("an RSA_v1 token needs wrappedKey, not ephemeralPublicKey")
    func rsaNeedsWrappedKey() throws {
        let error = #expect(throws: ApplePayTokenError.self) { try parse { $0["version"] = "RSA_v1" } }
        #expect(error?.field == "header.ephemeralPublicKey")
    }

    @Test("neither JSON nor base64 JSON", arguments: ["", "hello", "[1,2]", "{not json", "e30"])
    func garbage(text: String) throws {
        let error = #expect(throws: ApplePayTokenError.self) { try PaymentToken(parsing: text) }
        #expect(error?.code == .malformedToken)
    }

    @Test("data shorter than a GCM tag is rejected")
    func shortData() throws {
        let error = #expect(throws: ApplePayTokenError.self) {
            try parse { $0["data"] = Data(count: 16).base64EncodedString() }
        }
        #expect(error?.field == "data")
    }

    @Test("a signature that is not CMS SignedData is signatureInvalid, not a crash")
    func junkSignature() async throws {
        for junk in [[0x30, 0x80, 0, 0], [0x04, 0x01, 0x00], [UInt8](repeating: 0xFF, count: 64)] as [[UInt8]] {
            var token = try parse { _ in }
            token.signature = junk
            let error = await #expect(throws: ApplePayTokenError.self) {
                try await ApplePayTokenDecryptor().verifySignature(of: token)
            }
            #expect(error?.code == .signatureInvalid)
        }
    }
}
