import ArgumentParser
import Foundation
import Gateway
import GatewayCertificates

/// `gateway merchant-certificate`: the client certificate a merchant authenticates with on the
/// certificate listener (`server.certificateAuthentication.port`), instead of a password.
struct MerchantCertificateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merchant-certificate",
        abstract: "Create a merchant's client-certificate key and CSR, and (sandbox) sign it with the local CA.",
        discussion: """
            1. new --merchant ID: an EC P-256 key (mode 0600) and a CSR for subject CN=ID.
            2. sandbox-sign --request ID.csr: the sandbox's local CA (the one `gateway serve --tls` uses) \
            signs it; a `--tls` sandbox accepts it for merchant ID on the certificate listener.
            3. curl --cacert <ca.pem> --cert ID.pem --key ID-key.pem https://127.0.0.1:<port>/api/rest/version/100/...
            """,
        subcommands: [New.self, SandboxSign.self]
    )

    struct New: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Generate the key and CSR for a merchant's client certificate.")

        @Option(name: .long, help: "The gateway merchant id; the CSR's subject is CN=<id>.")
        var merchant: String

        @Option(name: .long, help: "Where to write <id>-key.pem and <id>.csr.")
        var directory: String = "data/merchant-certificates"

        func run() async throws {
            let (key, request) = try MerchantCertificates.new(merchantId: merchant, directory: directory)
            print("private key (keep it here, mode 0600): \(key)")
            print("certificate signing request: \(request)")
            print("In sandbox mode: gateway merchant-certificate sandbox-sign --request \(request)")
        }
    }

    struct SandboxSign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sandbox-sign",
            abstract: "Sign a merchant's CSR with the sandbox's local CA (sandbox mode only)."
        )

        @OptionGroup var options: ConfigurationOptions

        @Option(name: .long, help: "The CSR (PEM) from `merchant-certificate new`.")
        var request: String

        @Option(name: .long, help: "Days the certificate is valid (1-825).")
        var days: Int = 90

        func run() async throws {
            let (certificate, ca) = try await ConfigurationExit.reporting {
                try await MerchantCertificates.sandboxSign(request: request, days: days, overrides: options.overrides)
            }
            print("client certificate: \(certificate)")
            print("the local CA that signed it (and the server's certificate under --tls): \(ca)")
        }
    }
}
