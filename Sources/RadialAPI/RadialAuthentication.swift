import GatewayCore
import HTTPTypes
import Hummingbird

/// Authentication as Radial's public SDK sends it (`HttpApi::buildHeader`): an `apikey` header,
/// and the store id in the URL. Here the store id is the merchant id and the API key is one of
/// the merchant's API passwords (the ones MPGS Basic auth takes), so one merchant configuration
/// serves both APIs.
package struct RadialAuthentication: Sendable {
    let merchants: [String: Merchant]

    package init(merchants: [String: Merchant]) { self.merchants = merchants }

    static let header = HTTPField.Name("apikey")!

    func authenticate(_ request: Request, storeId: String) throws(RadialFault) -> Merchant {
        guard let key = request.headers[Self.header], let merchant = merchants[storeId], merchant.accepts(password: key) else {
            // The same answer whether the store or the key is wrong: it tells a guesser nothing.
            throw RadialFault(.unauthorized, "the apikey header is missing or is not a key of this store")
        }
        return merchant
    }
}
