import Foundation
import Hummingbird

/// HTTP Basic as MPGS does it: user `merchant.<ID>`, the merchant's API password, and only on
/// that merchant's own paths.
struct MerchantAuthentication: Sendable {
    let merchants: [String: Merchant]

    func authenticate(_ request: Request, pathMerchantId: String) throws(GatewayError) -> Merchant {
        guard case let (user, password)? = Self.basicCredentials(request),
            user.hasPrefix("merchant."), let merchant = merchants[String(user.dropFirst("merchant.".count))],
            merchant.accepts(password: password)
        else { throw GatewayError.invalidCredentials }
        guard merchant.id == pathMerchantId else { throw GatewayError.notAuthorisedForTarget }
        return merchant
    }

    /// The user and password of an `Authorization: Basic` header.
    static func basicCredentials(_ request: Request) -> (user: String, password: String)? {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let credentials = String(data: decoded, encoding: .utf8),
            let separator = credentials.firstIndex(of: ":")
        else { return nil }
        return (String(credentials[..<separator]), String(credentials[credentials.index(after: separator)...]))
    }
}
