import ArgumentParser
import Foundation
import Gateway
import GatewayCertificates
import GatewayConfigurationFile

/// `gateway applepay-identity`: the payment processing key set-up every real integration needs,
/// from a new key to a configured identity, with the sandbox standing in for Apple when asked.
struct ApplePayIdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "applepay-identity",
        abstract: "Create the Apple Pay payment processing key and CSR, and install the certificate Apple returns.",
        discussion: """
            1. new --merchant merchant.com.example: an EC P-256 key (mode 0600) and the CSR to upload in Apple's \
            developer portal under "Apple Pay Payment Processing Certificate" (add --rsa for an RSA-2048 key, \
            for RSA_v1 tokens in China mainland).
            2. Upload the CSR; download apple_pay.cer. In sandbox mode, sandbox-sign stands in for Apple.
            3. install --merchant merchant.com.example --certificate apple_pay.cer --config gateway.json \
            --gateway-merchant ID: checks the certificate and writes the configuration entries.
            """,
        subcommands: [New.self, SandboxSign.self, Install.self]
    )

    struct Location: ParsableArguments {
        @Option(name: .long, help: "The Apple merchant identifier, e.g. merchant.com.example.")
        var merchant: String

        @Option(name: .long, help: "Where the keys live: <directory>/<merchant identifier>/.")
        var directory: String = "data/applepay"

        var identityDirectory: ApplePayIdentityDirectory {
            get throws { try ApplePayIdentityDirectory(root: directory, merchantIdentifier: merchant) }
        }

        /// ` --directory D` when it is not the default, for the commands printed as hints.
        var directoryArgument: String { directory == "data/applepay" ? "" : " --directory \(directory)" }
    }

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate the payment processing key (EC P-256, and RSA-2048 with --rsa) and its CSR."
        )

        @OptionGroup var location: Location

        @Flag(name: .long, help: "Also generate an RSA-2048 key and CSR (RSA_v1 tokens, China mainland).")
        var rsa = false

        func run() async throws {
            try IdentityFailure.reporting {
                let directory = try location.identityDirectory
                let earlier = directory.existingSlots()
                let slots = try directory.createKeys(rsa ? [.ec, .rsa] : [.ec])
                for slot in slots {
                    print("private key '\(slot)' (keep it here, mode 0600): \(directory.keyFile(slot).path)")
                    print("certificate signing request: \(directory.requestFile(slot).path)")
                }
                if !earlier.isEmpty {
                    print(
                        "This is a new key beside \(earlier.map(\.label).joined(separator: ", ")): install it as another identity, "
                            + "and both decrypt until you remove the old one."
                    )
                }
                let place = location.directoryArgument
                for slot in slots {
                    let csr = directory.requestFile(slot).path
                    print(
                        """
                        Next for '\(slot)': upload \(csr) in Apple's developer portal (Merchant IDs > \(location.merchant) > \
                        Apple Pay Payment Processing Certificate > Create Certificate), download it as apple_pay.cer, then run
                          gateway applepay-identity install --merchant \(location.merchant)\(place) --certificate apple_pay.cer \
                        --config gateway.json --gateway-merchant YOUR_MERCHANT_ID
                        Without Apple (sandbox mode), sign it here instead of uploading it:
                          gateway applepay-identity sandbox-sign --merchant \(location.merchant)\(place) --csr \(csr) \
                        --config gateway.json --output apple_pay.cer
                        """
                    )
                }
            }
        }
    }

    struct SandboxSign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sandbox-sign",
            abstract: "Sign a CSR with the sandbox authority, as Apple's portal would (sandbox mode only)."
        )

        @OptionGroup var location: Location

        @Option(name: .long, help: "The CSR to sign (default: the newest EC one `new` wrote).")
        var csr: String?

        @Option(name: .long, help: "Where to write the DER certificate.")
        var output: String = "apple_pay.cer"

        @Option(name: .long, help: "A JSON configuration file (default: the embedded sandbox configuration).")
        var config: String?

        func run() async throws {
            try await ConfigurationExit.reporting {
                try IdentityFailure.reporting {
                    let directory = try location.identityDirectory
                    let request = csr ?? directory.requestFile(directory.newestSlot(.ec) ?? .init(.ec)).path
                    let certificate = try ApplePayIdentitySandbox.sign(
                        requestPath: request,
                        merchantIdentifier: location.merchant,
                        configFile: config
                    )
                    try Data(certificate).write(to: URL(fileURLWithPath: output))
                    print("sandbox payment processing certificate for \(location.merchant): \(output)")
                }
            }
        }
    }

    struct Install: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check Apple's certificate against the generated keys and write the configuration entries."
        )

        @OptionGroup var location: Location

        @Option(name: .long, help: "The certificate Apple returned (apple_pay.cer, DER; PEM is accepted too).")
        var certificate: String

        @Option(name: .long, help: "The JSON configuration file to add the identity to (without it, the entries are printed).")
        var config: String?

        @Option(name: .long, help: "The gateway merchant id (as in `merchants`) the identity belongs to.")
        var gatewayMerchant: String?

        @Option(name: .long, help: "The identity's name in the configuration (default: its key's name, e.g. ec or ec-2).")
        var name: String?

        @Flag(name: .long, help: "Replace an identity of that name, or another certificate for this key, instead of refusing.")
        var replace = false

        func validate() throws {
            if config != nil, gatewayMerchant == nil { throw ValidationError("--config needs --gateway-merchant") }
        }

        /// `path` without the working directory's prefix, when it is under it.
        static func workingRelative(_ path: String) -> String {
            let working = FileManager.default.currentDirectoryPath
            let prefix = working.hasSuffix("/") ? working : working + "/"
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }

        func run() async throws {
            try await ConfigurationExit.reporting {
                try IdentityFailure.reporting {
                    let directory = try location.identityDirectory
                    guard let bytes = FileManager.default.contents(atPath: certificate) else {
                        throw ApplePayIdentityError("cannot read \(certificate)")
                    }
                    // Everything is checked before anything is written.
                    let (matched, slot) = try directory.match(certificate: Array(bytes))
                    let identityName = name ?? slot.label
                    // Relative to the working directory when under it, as the configuration
                    // reads them: the file still works when the checkout moves.
                    let keyPath = Self.workingRelative(directory.keyFile(slot).path)
                    let certificatePath = Self.workingRelative(directory.certificateFile(slot).path)
                    let change = try config.map { config in
                        try ApplePayIdentityConfiguration.prepare(
                            file: config,
                            gatewayMerchant: gatewayMerchant ?? "",
                            name: identityName,
                            privateKey: keyPath,
                            certificate: certificatePath,
                            replace: replace
                        )
                    }
                    let stored = try directory.store(matched, for: slot, replace: replace)
                    let verb = stored == .alreadyInstalled ? "was already stored" : stored == .replaced ? "replaced" : "stored"
                    print("payment processing certificate for \(location.merchant) matches \(keyPath); \(verb) as \(certificatePath)")
                    guard let change, let gatewayMerchant else {
                        print(
                            ApplePayIdentityConfiguration.entries(
                                gatewayMerchant: gatewayMerchant ?? "YOUR_MERCHANT_ID",
                                name: identityName,
                                privateKey: keyPath,
                                certificate: certificatePath
                            ),
                            terminator: ""
                        )
                        return
                    }
                    try ApplePayIdentityConfiguration.write(change)
                    let identities = change.identities.joined(separator: ", ")
                    switch change.kind {
                    case .unchanged:
                        print("identity '\(identityName)' of merchant \(gatewayMerchant) was already in \(change.path) (identities: \(identities))")
                    case .added, .replaced:
                        print(
                            "\(change.kind == .added ? "added" : "replaced") identity '\(identityName)' of merchant \(gatewayMerchant) "
                                + "in \(change.path) (identities: \(identities)); the file was rewritten with sorted keys and "
                                + "JSONSerialization's indentation"
                        )
                    }
                }
                // Loaded as `gateway serve` would load it, so a mistake shows now rather than at the next start.
                if let config { print(try await GatewayService.checkConfiguration(GatewayService.Overrides(configFile: config))) }
            }
        }
    }
}

/// Set-up failures are not usage mistakes: one line on stderr, exit 1, no usage text.
enum IdentityFailure {
    static func reporting<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as ConfigurationError {
            throw error
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
