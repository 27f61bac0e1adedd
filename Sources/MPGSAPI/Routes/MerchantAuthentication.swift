import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import WireJSON

/// HTTP Basic as MPGS does it: user `merchant.<ID>`, the merchant's API password, and only on
/// that merchant's own paths.
package struct MerchantAuthentication: Sendable {
    let merchants: [String: Merchant]

    package init(
        merchants: [String: Merchant]
    ) {
        self.merchants = merchants
    }

    /// How a call was authenticated: UNMASK needs a certificate.
    enum Credential: Equatable {
        case apiPassword
        case certificate
    }

    func authenticate(_ request: Request, _ context: GatewayRequestContext, pathMerchantId: String) throws(GatewayError) -> Merchant {
        try authenticateCaller(request, context, pathMerchantId: pathMerchantId).merchant
    }

    /// The certificate listener's verdict when there is one (no password needed), else the
    /// API password; either way the merchant must be the one in the path.
    func authenticateCaller(
        _ request: Request,
        _ context: GatewayRequestContext,
        pathMerchantId: String
    ) throws(GatewayError) -> (merchant: Merchant, credential: Credential) {
        switch context.clientCertificate {
        case nil:
            return (try authenticate(request, pathMerchantId: pathMerchantId), .apiPassword)
        case .refused:
            throw GatewayError.invalidCredentials
        case .merchants(let ids):
            guard ids.contains(pathMerchantId), let merchant = merchants[pathMerchantId] else {
                throw GatewayError.notAuthorisedForTarget
            }
            return (merchant, .certificate)
        }
    }

    private func authenticate(_ request: Request, pathMerchantId: String) throws(GatewayError) -> Merchant {
        guard case let (user, password)? = Self.basicCredentials(request),
            user.hasPrefix("merchant."), let merchant = merchants[String(user.dropFirst("merchant.".count))],
            merchant.accepts(password: password)
        else { throw GatewayError.invalidCredentials }
        guard merchant.id == pathMerchantId else { throw GatewayError.notAuthorisedForTarget }
        return merchant
    }

    /// The user and password of an `Authorization: Basic` header.
    /// The scheme is matched without case, as RFC 9110 says; the bytes are read as bytes
    /// (Foundation's case folding and character sets cost more than the rest of the check).
    static func basicCredentials(_ request: Request) -> (user: String, password: String)? {
        guard var header = request.headers[.authorization] else { return nil }
        // Read in place and split as bytes: the copies of the header and of the decoded text as a
        // String were 3 of a plain-card AUTHORIZE's 237 mallocs.
        return header.withUTF8 { bytes -> (String, String)? in
            guard bytes.count > 6, bytes[5] == UInt8(ascii: " "),
                zip(bytes[..<5], "basic".utf8).allSatisfy({ $0 | 0x20 == $1 })
            else { return nil }
            return userAndPassword(base64: UnsafeBufferPointer(rebasing: bytes[6...]))
        }
    }

    /// The user and password of an `Authorization` header that is Base64 alone, with no scheme:
    /// what Mastercard's iOS SDK sends with the session credential. Only the session credential
    /// is read this way (see `authenticateSessionUpdate`); API passwords need `Basic`.
    static func schemelessCredentials(_ request: Request) -> (user: String, password: String)? {
        guard var header = request.headers[.authorization] else { return nil }
        return header.withUTF8 { userAndPassword(base64: $0) }
    }

    /// `user:password` from Base64 text with optional blanks around it; nil unless both halves
    /// are UTF-8.
    private static func userAndPassword(base64 bytes: UnsafeBufferPointer<UInt8>) -> (String, String)? {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) }),
            let decoded = Base64.decodeStrictly(utf8: UnsafeBufferPointer(rebasing: bytes[first...last])),
            let separator = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        // ':' is ASCII, so it never splits a UTF-8 sequence: both halves valid is the whole valid.
        return decoded.withUnsafeBufferPointer { decoded in
            guard let user = String(wellFormedUTF8: UnsafeBufferPointer(rebasing: decoded[..<separator])),
                let password = String(wellFormedUTF8: UnsafeBufferPointer(rebasing: decoded[(separator + 1)...]))
            else { return nil }
            return (user, password)
        }
    }
}
