import ArgumentParser
import Foundation
import GooglePayToken
import WireJSON

/// A Google Pay payment method token, told from an Apple Pay paymentData by its own fields.
struct GooglePayTokenText {
    let text: String

    /// The token JSON, or that JSON as a JSON string (as `tokenizationData.token` holds it);
    /// nil for anything else, which is left to the Apple Pay reader. Text that is not JSON but
    /// names Google's fields goes to the Google Pay reader, which says what is wrong with it.
    static func recognise(_ text: String) -> GooglePayTokenText? {
        guard let value = try? JSONValue(parsing: Array(text.utf8)) else {
            let namesGoogleFields = text.contains("\"protocolVersion\"") && text.contains("\"signedMessage\"")
            return namesGoogleFields ? GooglePayTokenText(text: text) : nil
        }
        if case .string(let inner) = value { return recognise(inner) }
        guard value["protocolVersion"] != nil, value["signedMessage"] != nil else { return nil }
        return GooglePayTokenText(text: text)
    }
}

extension DecryptCommand {
    /// Verifies and decrypts a Google Pay token for --recipient-id with the --private-key files,
    /// trusting Google's test roots or --google-root-keys, and prints the message.
    func decryptGooglePay(_ tokenText: GooglePayTokenText) throws {
        try rejectOptions(
            [
                "--certificate": certificate.first, "--merchant-id": merchantId, "--trust-root": trustRoot.first,
                "--pkcs12-password": pkcs12Password,
            ],
            for: "Apple Pay"
        )
        guard let recipientId else {
            throw FileProblem(message: "a Google Pay token needs --recipient-id gateway:<gateway id> or merchant:<merchant id>")
        }
        guard recipientId.hasPrefix("gateway:") || recipientId.hasPrefix("merchant:") else {
            throw FileProblem(message: "--recipient-id must be gateway:<gateway id> or merchant:<merchant id>, not '\(recipientId)'")
        }
        let token = try GooglePaymentMethodToken(parsing: tokenText.text)
        let keys = try privateKey.map { path in try inGooglePayFile(path) { try GooglePayRecipient.privateKey(from: readText(path)) } }
        let roots = try googleRootKeys.map { path in try inGooglePayFile(path) { try GoogleRootSigningKeys(keysJSON: readText(path)) } }
        let now = at.flatMap(ISO8601.date(from:)) ?? Date()
        let decryptor = GooglePayTokenDecryptor(rootKeys: roots ?? .googleTest, clock: { now })
        do {
            let result = try decryptor.decrypt(token, for: GooglePayRecipient(recipientId: recipientId, privateKeys: keys))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(result.message.jsonValue(unmasked: unmask)), as: UTF8.self))
        } catch let error as GooglePayTokenError where error.code == .untrustedIntermediateKey {
            let trusted = googleRootKeys.map { "\($0) (--google-root-keys)" } ?? "Google's test keys (built in)"
            fail(
                "\(error.code): \(error.reason). Trusted roots: \(trusted). A sandbox token (gateway mint-token --wallet google-pay) "
                    + "verifies with --google-root-keys keys.json from its sandbox directory; a production token with Google's "
                    + "production keys.json."
            )
        } catch let error as GooglePayTokenError where error.code == .messageSignatureInvalid {
            fail("\(error.code): \(error.reason); check --recipient-id '\(recipientId)'")
        }
    }

    /// The library's key material errors, naming the file they came from.
    private func inGooglePayFile<T>(_ path: String, _ load: () throws -> T) throws -> T {
        do {
            return try load()
        } catch let error as GooglePayTokenError {
            throw FileProblem(message: "\(error.code): \(path): \(error.reason)")
        }
    }
}
