import ArgumentParser

@main
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "A Mastercard-Gateway-style payment API that verifies and decrypts Apple Pay tokens.",
        subcommands: [ServeCommand.self, CheckConfigCommand.self, DecryptCommand.self, MintTokenCommand.self]
    )
}
