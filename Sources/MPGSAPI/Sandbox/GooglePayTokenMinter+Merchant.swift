import GatewayCore
import GooglePaySandbox

extension GooglePayTokenMinter {
    /// A token for `merchant`: signed for its recipient id and encrypted to its newest Google Pay
    /// key, as Google would make it for that merchant's page.
    func mint(_ message: GooglePayMintRequest, for merchant: Merchant) throws(GatewayError) -> String {
        guard let recipient = merchant.googlePay, let key = recipient.privateKeys.first else {
            throw GatewayError.request("Merchant '\(merchant.id)' has no Google Pay key configured (merchant.<ID>.googlePay.privateKeys)")
        }
        do {
            return try mint(message, recipientId: recipient.recipientId, recipientPublicKey: key.publicKey)
        } catch {
            throw GatewayError(status: .internalServerError, cause: .serverFailed, explanation: "The sandbox could not mint the token")
        }
    }
}
