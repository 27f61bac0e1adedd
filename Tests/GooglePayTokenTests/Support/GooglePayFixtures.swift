import Crypto
import Foundation
import GooglePayToken
import WireJSON

/// The public vectors under `Tests/GooglePayTokenTests/Fixtures`, one folder each (token.json,
/// recipient-key.pem, expected.json, SOURCE.txt).
enum GooglePayFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = packageRoot.appendingPathComponent("Tests/GooglePayTokenTests/Fixtures")

    static func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: directory.appendingPathComponent(path)), as: UTF8.self)
    }

    static func token(_ vector: String) throws -> GooglePaymentMethodToken {
        try GooglePaymentMethodToken(parsing: tokenText(vector))
    }

    static func tokenText(_ vector: String) throws -> String { try text("\(vector)/token.json") }

    static func privateKey(_ vector: String) throws -> P256.KeyAgreement.PrivateKey {
        try GooglePayRecipient.privateKey(from: text("\(vector)/recipient-key.pem"))
    }

    static func expected(_ vector: String) throws -> JSONValue {
        try JSONValue(parsing: Array(text("\(vector)/expected.json").utf8))
    }

    /// Tink's sample roots (ECv1 and ECv2), which signed Tink's and yoyowallet's vectors.
    static func tinkRoots() throws -> GoogleRootSigningKeys {
        try GoogleRootSigningKeys(keysJSON: text("tink-roots.json"))
    }

    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

extension JSONValue {
    /// The plaintext as JSON, for comparing with an expected document whatever its key order.
    init(plaintext: [UInt8]) throws {
        self = try JSONValue(parsing: plaintext)
    }
}

extension GooglePayFixtures {
    /// The ECv2 key of Google's published test keys.json.
    static let ecv2TestRootKeyValue =
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGnJ7Yo1sX9b4kr4Aa5uq58JRQfzD8bIJXw7WXaap/hVE+PnFxvjx4nVxt79SdRuUVeu++HZD0cGAv4IOznc96w=="
}
