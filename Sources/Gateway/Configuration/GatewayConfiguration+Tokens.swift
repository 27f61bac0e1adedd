import GatewayConfigurationFile
import GatewayCore
extension GatewayConfiguration {
    /// `merchant.<ID>.tokens.*`: the merchant's token repository, each key checked by name.
    static func tokenRepository(_ merchantId: String, _ values: ConfigValues) throws(ConfigurationError) -> TokenRepository {
        let prefix = "merchant.\(merchantId).tokens"
        var repository = TokenRepository(id: merchantId)
        if let text = try values.string("\(prefix).format") {
            guard let format = TokenFormatSetting(rawValue: text) else {
                throw ConfigurationError(key: "\(prefix).format", problem: "must be random or preserveSixFour")
            }
            repository.format = format.format
        }
        if let text = try values.string("\(prefix).verificationStrategy") {
            guard let strategy = VerificationStrategySetting(rawValue: text) else {
                throw ConfigurationError(key: "\(prefix).verificationStrategy", problem: "must be acquirer, basic or none")
            }
            repository.verificationStrategy = strategy.strategy
        }
        if let id = try values.string("\(prefix).repositoryId") {
            guard (1...40).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else {
                throw ConfigurationError(key: "\(prefix).repositoryId", problem: "must be 1-40 letters, digits, '-' or '_'")
            }
            repository.id = id
        }
        return repository
    }

    /// The configuration's spelling of ``TokenFormat``.
    private enum TokenFormatSetting: String {
        case random
        case preserveSixFour

        var format: TokenFormat {
            switch self {
            case .random: .random
            case .preserveSixFour: .preserveSixFour
            }
        }
    }

    /// The configuration's spelling of ``VerificationStrategy``.
    private enum VerificationStrategySetting: String {
        case acquirer
        case basic
        case none

        var strategy: VerificationStrategy {
            switch self {
            case .acquirer: .acquirer
            case .basic: .basic
            case .none: .none
            }
        }
    }
}
