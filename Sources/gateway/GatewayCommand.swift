import ArgumentParser

@main
struct GatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gateway",
        abstract: "A Mastercard-Gateway-style payment API that verifies and decrypts Apple Pay tokens.",
        version: GatewayVersion.current,
        subcommands: [
            ServeCommand.self, CheckConfigCommand.self, DecryptCommand.self, MintTokenCommand.self, ErrorsCommand.self,
            ApplePayIdentityCommand.self,
            // Issue 32.
            MerchantCertificateCommand.self,
            OperatorCommand.self,
            NotificationsCommand.self,
        ]
    )
}
