import ArgumentParser
import Gateway

/// `gateway serve`: the MPGS-style API. With no arguments: sandbox mode on 127.0.0.1:8080.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the payment API (sandbox mode on 127.0.0.1:8080 unless configured otherwise).",
        discussion: """
            Configuration comes from (highest first) these flags, GATEWAY_* environment variables \
            (GATEWAY_STORE_URL, GATEWAY_SERVER_PORT, ...), the --config JSON file, and, without one, \
            the embedded sandbox defaults (merchant TESTMERCHANT, keys under Config/sandbox/).
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @Flag(
        name: .long,
        help: "HTTPS (HTTP/2 and HTTP/1.1). In sandbox mode without server.tls.*, from a local CA made in sandbox.tlsDirectory on first use."
    )
    var tls = false

    func run() async throws {
        var overrides = options.overrides
        overrides.tls = tls
        try await ConfigurationExit.reporting { try await GatewayService.serve(overrides) }
    }
}

/// `gateway check-config`: validate configuration and key material without serving.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration and its key material, then exit."
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        print(try await ConfigurationExit.reporting { try await GatewayService.checkConfiguration(options.overrides) })
    }
}

struct ConfigurationOptions: ParsableArguments {
    @Option(name: .long, help: "A JSON configuration file (Deploy/docs/configuration.md lists every key).")
    var config: String?

    @Option(name: .long, help: "The address to listen on.")
    var host: String?

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port: Int?

    var overrides: GatewayService.Overrides {
        GatewayService.Overrides(configFile: config, host: host, port: port)
    }
}
