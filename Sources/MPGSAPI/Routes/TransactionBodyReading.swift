import GatewayCore
import WireJSON

/// What the transaction PUT reads from its body before it touches a store, a session or a key:
/// the JSON, its `apiOperation`, the catalogue's shape for that operation and version, the
/// operation's typed request, and the echo. `Sources/RequestFuzzer` drives it; the route runs the
/// same readers in the same order.
package enum TransactionBodyReading {
    /// What was read: the body as checked, and the fields the response would echo.
    package struct Read {
        package let root: JSONValue
        package let echo: JSONValue
    }

    /// Reads `body` as the transaction PUT of API version `version` does; throws the route's
    /// ``GatewayError`` for anything it refuses.
    package static func read(_ body: [UInt8], version: Int) throws(GatewayError) -> Read {
        let catalogue = RequestCatalogue.transactionRequest
        var operation = APIOperation.pay
        var shape = FieldShape.any
        let reader = try RequestReader(body: body) { (root: JSONValue) throws(GatewayError) -> FieldShape in
            // The route's own reading of the operation, so the two refuse alike.
            operation = try GatewayRoutes.operation(root)
            shape = catalogue.shape(for: operation, version: version)
            return shape
        }
        switch operation {
        case .initial(let payment):
            // A session or a stored card would be resolved here; the body alone is read.
            if reader.text("session.id") == nil, reader.text("sourceOfFunds.token") == nil {
                _ = try PaymentRequest.reading(reader, operation: payment)
            }
        case .followOn(let followOn):
            _ = try FollowOnRequest.reading(reader, operation: followOn)
        case .authentication(.initiateAuthentication):
            _ = try InitiateAuthenticationRequest.reading(reader)
        case .authentication(.authenticatePayer):
            _ = try AuthenticatePayerRequest.reading(reader)
        case .browserPayment(.initiate):
            _ = try BrowserPaymentRequest.reading(reader)
        case .browserPayment(.confirm):
            _ = try BrowserPaymentConfirmRequest.reading(reader)
        case .browserPayment(.update):
            break  // correlationId only: the catalogue has checked it.
        }
        return Read(root: reader.root, echo: catalogue.echo(of: reader.root, shape: shape))
    }
}
