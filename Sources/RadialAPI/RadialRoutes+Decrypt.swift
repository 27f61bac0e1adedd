import ApplePayToken
import GatewayCore
import GatewayHTTP
import Hummingbird

extension RadialRoutes {
    /// Decrypt: the token's parts in, the decrypted payment data out, for merchants whose
    /// configuration grants it. The token is verified as for an authorization (signature, chain,
    /// signing time, key) and refused when it was already authorized (by either replay key); a decrypt
    /// does not itself use the id up, since the caller authorizes with the card data next.
    func decrypt(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let merchant = try merchant(request, context)
        guard decryptMerchants.contains(merchant.id) else {
            throw RadialFault(
                .decryptNotEnabled,
                "Decrypt is not enabled for this store: it returns card data, so the merchant's configuration must grant it"
            )
        }
        let (_, root) = try await document(request)
        let rootName = RadialRequestReading.decryptRoot
        let walletPath = RadialRequestReading.decryptWalletPath
        let wallet = try RadialRequestReading.decryptToken(root)
        let decrypted: DecryptedPaymentToken
        do {
            decrypted = try await decryptor.decrypt(wallet.token, using: merchant.keyRing)
        } catch {
            throw RadialFault(TokenRejection(error), root: rootName, walletPath: walletPath)
        }
        if try await processor.store.isApplePayTokenUsed(ApplePayReplayKey(decrypted)) {
            throw RadialFault(TokenRejection.replayed, root: rootName, walletPath: walletPath)
        }
        return Self.xml(.ok, XMLWriter.document(RadialDecryptReply(token: decrypted).output))
    }
}
