import Foundation
import GatewayCore
import Hummingbird

/// The Radial-style API's error reply: `Fault` (Checkout-Service-Fault-1.0.xsd) with
/// `CreateTimestamp`, `Code` and `Description`, plus, in the schema's open `xsd:any` tail, the
/// `Element` at fault when there is one. The codes are this gateway's choice (Radial publishes no
/// list); the README lists them.
package struct RadialFault: Error, Sendable, Equatable {
    enum Kind: String, Sendable, CaseIterable {
        /// The body is not well-formed XML, breaks the schema, or carries a value the API refuses.
        case invalidRequest = "INVALID_REQUEST"
        /// The Apple Pay token's parts were refused: signature, chain, key, decryption, replay, amount, currency.
        case tokenRejected = "TOKEN_REJECTED"
        /// The order already has a successful authorization, or the requestId was used with other content.
        case orderConflict = "ORDER_CONFLICT"
        /// Missing or wrong `apikey`, or a store the key does not belong to.
        case unauthorized = "UNAUTHORIZED"
        /// Decrypt is a privilege the merchant's configuration must grant.
        case decryptNotEnabled = "DECRYPT_NOT_ENABLED"
        case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
        case requestTooLarge = "REQUEST_TOO_LARGE"
        /// Another request on the same order won the race; retrying is safe.
        case retry = "RETRY"
        case serviceUnavailable = "SERVICE_UNAVAILABLE"
        case serverFailed = "SERVER_FAILED"

        var status: HTTPResponse.Status {
            switch self {
            case .invalidRequest, .tokenRejected: .badRequest
            case .orderConflict, .retry: .conflict
            case .unauthorized: .unauthorized
            case .decryptNotEnabled: .forbidden
            case .unsupportedMediaType: .unsupportedMediaType
            case .requestTooLarge: .contentTooLarge
            case .serviceUnavailable: .serviceUnavailable
            case .serverFailed: .internalServerError
            }
        }
    }

    var kind: Kind
    /// The element (`CreditCardAuthRequest/BillingAddress/City`) or attribute (`.../@requestId`) at fault.
    var element: String?
    var description: String
    /// A token this front end refused itself (the core reports its own): metrics count it, and
    /// Decrypt's result is its code (`SIGNATURE_INVALID`, `REPLAYED`, ...).
    var tokenRejection: TokenRejection?

    init(_ kind: Kind, element: String? = nil, _ description: String, tokenRejection: TokenRejection? = nil) {
        self.kind = kind
        self.element = element
        self.description = description
        self.tokenRejection = tokenRejection
    }

    /// A schema or value fault naming the element.
    static func invalid(_ element: String, _ description: String) -> RadialFault {
        RadialFault(.invalidRequest, element: element, description)
    }

    func output(at time: Date) -> XMLOutput {
        var children = [
            XMLOutput("CreateTimestamp", text: Self.timestamp(time)),
            XMLOutput("Code", text: kind.rawValue),
            XMLOutput("Description", text: element.map { "\($0): \(description)" } ?? description),
        ]
        if let element { children.append(XMLOutput("Element", text: element)) }
        return XMLOutput("Fault", attributes: [("xmlns", RadialNamespace.checkout)], children: children)
    }

    func response(at time: Date) -> Response {
        RadialRoutes.xml(kind.status, XMLWriter.document(output(at: time)))
    }

    /// `xsd:dateTime` in UTC with an explicit offset, as the fault schema's example shows. The
    /// format style is plain Swift: a `DateFormatter` built an ICU formatter for every fault,
    /// which made a refusal cost more than an approval.
    static func timestamp(_ time: Date) -> String {
        String(time.formatted(.iso8601).dropLast()) + "+00:00"
    }
}

enum RadialNamespace {
    /// The namespace of every request and reply of Radial's checkout schemas.
    static let checkout = "http://api.gsicommerce.com/schema/checkout/1.0"
}
