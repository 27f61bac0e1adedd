import Foundation
import GooglePayToken

/// What a minted token's message says. Defaults: a PAN_ONLY Visa test card, valid for an hour.
public struct GooglePayMintRequest: Sendable {
    public var authMethod: GooglePayMessage.AuthMethod = .panOnly
    public var pan = "4111111111111111"
    public var expirationMonth = 12
    public var expirationYear = 2030
    /// CRYPTOGRAM_3DS only.
    public var cryptogram: String?
    /// CRYPTOGRAM_3DS only.
    public var eciIndicator: String?
    public var gatewayMerchantId: String?
    /// nil: a random one, as Google's are unique per message.
    public var messageId: String?
    public var messageExpiration = Date().addingTimeInterval(3600)

    public init() {}
}
