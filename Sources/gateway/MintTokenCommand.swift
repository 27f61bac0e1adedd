import ArgumentParser
import Gateway
import MPGSAPI

/// `gateway mint-token`: a sandbox Apple Pay token for a configured merchant, printed as the
/// paymentData JSON that goes into `devicePayment.paymentToken`.
struct MintTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint-token",
        abstract: "Mint a sandbox Apple Pay token (sandbox mode only) and print its paymentData JSON.",
        discussion: """
            The token is signed by the sandbox certificate authority (sandbox.authorityDirectory, created on \
            first use) and encrypted to the merchant's configured Apple Pay identity, so a gateway in sandbox \
            mode with the same configuration verifies and decrypts it exactly like a device's.
            """
    )

    @Option(name: .long, help: "A JSON configuration file (default: the embedded sandbox configuration).")
    var config: String?

    @Option(name: .long, help: "The merchant id the token is for.")
    var merchant: String = "TESTMERCHANT"

    @Option(name: .long, help: "The amount in major units, e.g. 57.57.")
    var amount: String

    @Option(name: .long, help: "The ISO 4217 alphabetic currency, e.g. USD (the token carries the numeric code).")
    var currency: String

    @Option(name: .long, help: "EC_v1 or RSA_v1.")
    var version: String = "EC_v1"

    @Option(name: .long, help: "3DSecure or EMV.")
    var paymentDataType: String?

    @Option(name: [.customLong("pan"), .customLong("application-primary-account-number")], help: "The device PAN.")
    var applicationPrimaryAccountNumber: String?

    @Option(name: [.customLong("expiry"), .customLong("application-expiration-date")], help: "YYMMDD.")
    var applicationExpirationDate: String?

    @Option(name: .long, help: "The cardholder name.")
    var cardholderName: String?

    @Option(name: [.customLong("cryptogram"), .customLong("online-payment-cryptogram")], help: "3DSecure: base64.")
    var onlinePaymentCryptogram: String?

    @Option(name: [.customLong("eci"), .customLong("eci-indicator")], help: "3DSecure: the ECI indicator.")
    var eciIndicator: String?

    @Option(name: .long, help: "EMV: the EMV data, base64.")
    var emvData: String?

    @Option(name: .long, help: "Application data as hex; the token header carries its SHA-256.")
    var applicationData: String?

    @Option(name: .long, help: "The CMS signing time, ISO 8601 (default now); an old one tests the window.")
    var signingTime: String?

    func run() async throws {
        var options = SandboxTokenOptions()
        options.amount = amount
        options.currency = currency
        options.version = version
        options.paymentDataType = paymentDataType
        options.applicationPrimaryAccountNumber = applicationPrimaryAccountNumber
        options.applicationExpirationDate = applicationExpirationDate
        options.cardholderName = cardholderName
        options.onlinePaymentCryptogram = onlinePaymentCryptogram
        options.eciIndicator = eciIndicator
        options.emvData = emvData
        options.applicationData = applicationData
        options.signingTime = signingTime
        print(
            try await ConfigurationExit.reporting {
                try await GatewayService.mintToken(GatewayService.Overrides(configFile: config), merchantId: merchant, options: options)
            }
        )
    }
}
