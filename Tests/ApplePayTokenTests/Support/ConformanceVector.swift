import ApplePayToken
import Foundation
import Testing
import WireJSON

/// One folder of the conformance vectors (`Fixtures/conformance/vectors`), as its meta.json describes it.
struct ConformanceVector: Sendable, CustomTestStringConvertible {
    let name: String
    let directory: URL
    let kind: String
    let version: String?
    let signingTime: Date?
    let files: [String: String]
    let merchantIdHash: String?
    let sharedSecretBase64: String?
    let symmetricKeyBase64: String?

    var testDescription: String { name }

    static let all: [ConformanceVector] = {
        let root = Fixtures.conformanceDirectory.appendingPathComponent("vectors")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { try? ConformanceVector(directory: root.appendingPathComponent($0)) }
    }()

    static var tokens: [ConformanceVector] { all.filter { $0.kind == "token" } }
    static var withPrivateKey: [ConformanceVector] { tokens.filter { $0.files["privateKey"] != nil } }
    static var withSymmetricKey: [ConformanceVector] { tokens.filter { $0.files["symmetricKey"] != nil } }
    static var withKDFIntermediates: [ConformanceVector] {
        tokens.filter { $0.merchantIdHash != nil && $0.sharedSecretBase64 != nil && $0.symmetricKeyBase64 != nil }
    }

    init(directory: URL) throws {
        guard let meta = try Fixtures.json(directory.appendingPathComponent("meta.json")) as? [String: Any] else {
            throw FixtureError(description: "\(directory.lastPathComponent)/meta.json is not an object")
        }
        self.directory = directory
        name = meta["name"] as? String ?? directory.lastPathComponent
        kind = meta["kind"] as? String ?? "token"
        version = meta["version"] as? String
        signingTime = (meta["signingTime"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
        files = meta["files"] as? [String: String] ?? [:]
        merchantIdHash = meta["merchantIdHash"] as? String
        sharedSecretBase64 = meta["sharedSecretBase64"] as? String
        symmetricKeyBase64 = meta["symmetricKeyBase64"] as? String
    }

    func file(_ role: String) throws -> URL {
        guard let name = files[role] else { throw FixtureError(description: "\(self.name) has no \(role) file") }
        return directory.appendingPathComponent(name)
    }

    func token() throws -> PaymentToken {
        try PaymentToken(parsing: Fixtures.text(file("token")))
    }

    func expectedJSON() throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(Fixtures.bytes(file("expected"))))
    }

    /// The merchant's key ring as the vector publishes it (certificate, or merchant identifier string).
    func keyRing() throws -> MerchantKeyRing {
        let key = try KeyMaterial.privateKey(from: Fixtures.bytes(file("privateKey")))
        if files["certificate"] != nil {
            let certificate = try KeyMaterial.certificate(from: Fixtures.bytes(file("certificate")))
            return MerchantKeyRing([try MerchantIdentity(certificate: certificate, privateKey: key)])
        }
        let identifier = try Fixtures.text(file("merchantIdentifier")).trimmingCharacters(in: .whitespacesAndNewlines)
        return MerchantKeyRing([MerchantIdentity(merchantIdentifier: identifier, privateKey: key)])
    }

    /// A decryptor trusting Apple Root CA - G3 alone, whose clock stands at the vector's signing time.
    func decryptorAtSigningTime() throws -> ApplePayTokenDecryptor {
        guard let signingTime else { throw FixtureError(description: "\(name) has no signingTime") }
        return ApplePayTokenDecryptor(trustRoots: .apple, clock: { signingTime })
    }
}
