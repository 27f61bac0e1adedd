import ApplePaySandbox
import ApplePayToken
import ArgumentParser
import Foundation
import GooglePayToken

/// `gateway decrypt`: verify and decrypt one token offline, as the gateway would.
struct DecryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Verify and decrypt an Apple Pay or Google Pay token; print the payment data as JSON.",
        discussion: """
            Exits 0 and prints the payment data (PAN masked 6+4 unless --unmask) on success; on any \
            failure exits 1 with one line on stderr naming the failed check (and the file, for key \
            and certificate problems). A Google Pay payment method token (protocolVersion ECv2, ECv1 \
            or ECv2SigningOnly) needs --recipient-id and its private keys; it prints the decrypted \
            message.
            """
    )

    @Option(
        name: .long,
        help: "The Apple Pay paymentData JSON (or base64 of it), or the Google Pay token JSON: a file, or - for standard input."
    )
    var token: String

    @Option(
        name: .long,
        help: "A merchant private key (Apple Pay: PEM, DER or PKCS#12; Google Pay: PEM or base64 PKCS#8). Repeat for a key ring."
    )
    var privateKey: [String] = []

    @Option(name: .long, help: "Google Pay: the recipient id the token is for, gateway:<gateway id> or merchant:<merchant id>.")
    var recipientId: String?

    @Option(name: .long, help: "Google Pay: the root signing keys to trust, a keys.json file (default: Google's test keys).")
    var googleRootKeys: String?

    @Option(name: .long, help: "The password of the PKCS#12 bundles given as --private-key.")
    var pkcs12Password: String?

    @Option(name: .long, help: "A payment processing certificate (PEM or DER); paired with its private key.")
    var certificate: [String] = []

    @Option(name: .long, help: "The merchant identifier, for private keys given without a certificate.")
    var merchantId: String?

    @Option(name: .long, help: "An extra trust root (PEM or DER), besides Apple Root CA - G3.")
    var trustRoot: [String] = []

    @Option(name: .long, help: "Validate as if it were this time (ISO 8601); default now.")
    var at: String?

    @Option(name: .long, help: "The signing-time window in seconds.")
    var window: Double = 300

    @Flag(name: .long, help: "Print the full device account number.")
    var unmask = false

    func validate() throws {
        guard !privateKey.isEmpty else { throw ValidationError("give at least one --private-key") }
        guard window >= 0 else { throw ValidationError("--window must not be negative") }
        if let at, ISO8601.date(from: at) == nil {
            throw ValidationError("--at must be an ISO 8601 time such as 2021-09-01T19:03:06Z")
        }
    }

    func run() async throws {
        do {
            let tokenText = try readText(token)
            if let googlePayToken = GooglePayTokenText.recognise(tokenText) {
                try decryptGooglePay(googlePayToken)
                return
            }
            try rejectOptions(["--recipient-id": recipientId, "--google-root-keys": googleRootKeys], for: "Google Pay")
            let parsedToken = try PaymentToken(parsing: tokenText)
            let keyRing = try loadKeyRing()
            var roots = TrustRoots.apple
            for path in trustRoot { roots = roots.adding(try inFile(path) { try KeyMaterial.certificates(from: readBytes(path)) }) }
            let now = at.flatMap(ISO8601.date(from:)) ?? Date()
            let decryptor = ApplePayTokenDecryptor(trustRoots: roots, signingTimeWindow: window, clock: { now })

            do {
                let result = try await decryptor.decrypt(parsedToken, using: keyRing)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                let json = try encoder.encode(result.paymentData.jsonValue(unmasked: unmask))
                print(String(decoding: json, as: UTF8.self))
            } catch let error as ApplePayTokenError where error.code == .untrustedChain {
                fail("\(error.code): \(error.reason). " + Self.untrustedChainHint(trustRoot, chainIssuer: error.chainIssuer))
            } catch let error as ApplePayTokenError where error.code == .decryptionFailed && parsedToken.version == .ecV1 && merchantId != nil {
                // EC_v1 derives its key from the merchant identifier: a wrong one looks exactly like a wrong key.
                fail("\(error.code): \(error.reason); if the private key is right, check --merchant-id '\(merchantId ?? "")'")
            }
        } catch let error as ApplePayTokenError {
            fail("\(error.code): \(error.reason)")
        } catch let error as GooglePayTokenError {
            fail("\(error.code): \(error.reason)")
        } catch let error as FileProblem {
            fail(error.message)
        }
    }

    /// The keys and certificates, each error naming its file; every key paired with its
    /// certificate, or with --merchant-id.
    private func loadKeyRing() throws -> MerchantKeyRing {
        var certificates = try certificate.map { path in
            (path: path, certificate: try inFile(path) { try KeyMaterial.certificate(from: readBytes(path)) })
        }
        var keys: [(path: String, key: MerchantIdentity.PrivateKey)] = []
        for path in privateKey {
            let bytes = try readBytes(path)
            if let pkcs12Password, KeyMaterial.isPKCS12(bytes) {
                let bundle = try inFile(path) { try KeyMaterial.pkcs12(bytes, password: pkcs12Password) }
                keys.append((path, bundle.privateKey))
                if let bundled = bundle.certificate, !certificates.contains(where: { $0.certificate == bundled }) {
                    certificates.append((path, bundled))
                }
            } else {
                keys.append((path, try inFile(path) { try KeyMaterial.privateKey(from: bytes) }))
            }
        }
        for (path, key) in keys where merchantId == nil && !certificates.contains(where: { key.isKey(of: $0.certificate) }) {
            let others = certificates.map { "\($0.path) (for \(MerchantIdentity.merchantName(in: $0.certificate)))" }
            throw FileProblem(
                message: others.isEmpty
                    ? "\(path): no certificate given for this private key: add its --certificate, or --merchant-id"
                    : "\(path): this private key does not belong to \(others.joined(separator: " or ")): "
                        + "give the payment processing certificate issued for this key, or --merchant-id"
            )
        }
        for (path, certificate) in certificates where !keys.contains(where: { $0.key.isKey(of: certificate) }) {
            throw FileProblem(
                message: "\(path): this certificate (for \(MerchantIdentity.merchantName(in: certificate))) belongs to none of the "
                    + "private keys given"
            )
        }
        return try MerchantKeyRing(
            privateKeys: keys.map(\.key),
            certificates: certificates.map(\.certificate),
            merchantIdentifier: merchantId
        )
    }

    /// Which roots were trusted and, for a chain that ends in a sandbox authority (the usual
    /// cause: a minted token checked against Apple's root alone), how to trust it.
    static func untrustedChainHint(_ trustRoots: [String], chainIssuer: String?) -> String {
        let trusted = ["Apple Root CA - G3 (built in)"] + trustRoots.map { "\($0) (--trust-root)" }
        var hint = "Trusted roots: \(trusted.joined(separator: ", "))."
        if chainIssuer?.contains(SandboxAuthority.rootCommonName) == true {
            hint +=
                " This is a sandbox token (gateway mint-token, or the /sandbox endpoint): add --trust-root "
                + "data/sandbox-authority/root.pem (the sandbox.authorityDirectory of the gateway that minted it)."
        }
        return hint
    }

    /// Options of the other wallet, given by mistake: said, not ignored.
    func rejectOptions(_ options: [String: String?], for wallet: String) throws {
        if let given = options.filter({ $0.value != nil }).keys.min() {
            throw FileProblem(message: "\(given) is for \(wallet) tokens, and this token is not one")
        }
    }

    func fail(_ line: String) -> Never {
        FileHandle.standardError.write(Data(("error: " + line + "\n").utf8))
        Foundation.exit(1)
    }
}

struct FileProblem: Error {
    let message: String
}

/// The library's key material errors, naming the file they came from.
private func inFile<T>(_ path: String, _ load: () throws -> T) throws -> T {
    do {
        return try load()
    } catch let error as ApplePayTokenError {
        throw FileProblem(message: "\(error.code): \(path): \(error.reason)")
    }
}

func readBytes(_ path: String) throws -> [UInt8] {
    if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw FileProblem(message: "cannot read \(path)")
    }
    return Array(data)
}

func readText(_ path: String) throws -> String {
    String(decoding: try readBytes(path), as: UTF8.self)
}

enum ISO8601 {
    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
