import ArgumentParser
import Gateway
import MPGSAPI

/// `gateway mint-token`: a sandbox Apple Pay token for a configured merchant, printed as the
/// paymentData JSON that goes into `devicePayment.paymentToken`; with `--wallet google-pay`, a
/// sandbox Google Pay ECv2 token (MintTokenCommand+GooglePay.swift).
struct MintTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mint-token",
        abstract: "Mint a sandbox Apple Pay token (sandbox mode only) or Google Pay token and print its JSON.",
        discussion: """
            Apple Pay (the default): the token is signed by the sandbox certificate authority \
            (sandbox.authorityDirectory, created on first use) and encrypted to the merchant's configured \
            Apple Pay identity, so a gateway in sandbox mode with the same configuration verifies and \
            decrypts it exactly like a device's.

            Google Pay (--wallet google-pay): an ECv2 token signed under the sandbox Google root \
            (--google-sandbox-directory, created on first use; its keys.json is what `gateway decrypt \
            --google-root-keys` trusts) for --recipient-id, encrypted to --public-key; printed as the \
            token JSON that goes into tokenizationData.token.
            """
    )

    @Option(name: .long, help: "A JSON configuration file (default: the embedded sandbox configuration).")
    var config: String?

    @Option(name: .long, help: "apple-pay or google-pay.")
    var wallet: Wallet = .applePay

    @Option(name: .long, help: "The merchant id the token is for.")
    var merchant: String = "TESTMERCHANT"

    @Option(name: .long, help: "Apple Pay: the amount in major units, e.g. 57.57.")
    var amount: String?

    @Option(name: .long, help: "Apple Pay: the ISO 4217 alphabetic currency, e.g. USD (the token carries the numeric code).")
    var currency: String?

    @Option(name: .long, help: "Apple Pay: EC_v1 (default) or RSA_v1.")
    var version: String?

    @Option(name: .long, help: "Apple Pay: 3DSecure or EMV.")
    var paymentDataType: String?

    @Option(name: [.customLong("pan"), .customLong("application-primary-account-number")], help: "The device PAN.")
    var applicationPrimaryAccountNumber: String?

    @Option(name: [.customLong("expiry"), .customLong("application-expiration-date")], help: "YYMMDD.")
    var applicationExpirationDate: String?

    @Option(name: .long, help: "Apple Pay: the cardholder name.")
    var cardholderName: String?

    @Option(
        name: [.customLong("cryptogram"), .customLong("online-payment-cryptogram")],
        help: "3DSecure or CRYPTOGRAM_3DS: base64."
    )
    var onlinePaymentCryptogram: String?

    @Option(name: [.customLong("eci"), .customLong("eci-indicator")], help: "3DSecure or CRYPTOGRAM_3DS: the ECI indicator.")
    var eciIndicator: String?

    @Option(name: .long, help: "Apple Pay EMV: the EMV data, base64.")
    var emvData: String?

    @Option(name: .long, help: "Apple Pay: application data as hex; the token header carries its SHA-256.")
    var applicationData: String?

    @Option(name: .long, help: "Apple Pay: the CMS signing time, ISO 8601 (default now); an old one tests the window.")
    var signingTime: String?

    @OptionGroup(title: "Google Pay")
    var googlePay: GooglePayMintOptions

    enum Wallet: String, ExpressibleByArgument, Sendable {
        case applePay = "apple-pay"
        case googlePay = "google-pay"
    }

    func validate() throws {
        switch wallet {
        case .applePay:
            guard amount != nil else { throw ValidationError("an Apple Pay token needs --amount") }
            guard currency != nil else { throw ValidationError("an Apple Pay token needs --currency") }
            if let given = googlePay.givenOptions.first { throw ValidationError("\(given) is for --wallet google-pay") }
        case .googlePay:
            let applePayOnly: [(String, String?)] = [
                ("--amount", amount), ("--currency", currency), ("--version", version), ("--payment-data-type", paymentDataType),
                ("--cardholder-name", cardholderName), ("--emv-data", emvData), ("--application-data", applicationData),
                ("--signing-time", signingTime),
            ]
            if let given = applePayOnly.first(where: { $0.1 != nil }) {
                throw ValidationError("\(given.0) is for Apple Pay tokens (a Google Pay token carries no amount)")
            }
            try googlePay.validateForGooglePay()
        }
    }

    func run() async throws {
        if wallet == .googlePay {
            print(try await mintGooglePay())
            return
        }
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
