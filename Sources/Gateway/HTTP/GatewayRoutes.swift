import ApplePayToken
import Crypto
import Hummingbird

/// The MPGS REST surface: `/api/rest/version/{version}/...`.
struct GatewayRoutes: Sendable {
    let authentication: MerchantAuthentication
    let processor: PaymentProcessor
    let orderOperations: OrderOperationProcessor
    let maxBodyBytes: Int
    let metrics: GatewayMetrics

    static let versions = 39...100

    func register(on router: Router<GatewayRequestContext>) {
        let base = "/api/rest/version/:version"
        router.get("\(base)/information") { _, context in
            _ = try Self.version(context)
            return Self.json(.ok, .object(["status": .string("OPERATING")]))
        }
        router.put("\(base)/merchant/:merchantId/order/:orderId/transaction/:transactionId") { request, context in
            do {
                return try await putTransaction(request, context)
            } catch let error as GatewayError {
                if let code = error.tokenFailureCode { metrics.tokenFailure(code: code) }
                throw error
            }
        }
        router.get("\(base)/merchant/:merchantId/order/:orderId/transaction/:transactionId") { request, context in
            try await getTransaction(request, context)
        }
        router.get("\(base)/merchant/:merchantId/order/:orderId") { request, context in
            try await getOrder(request, context)
        }
        router.refuseMethods(except: [.get], on: "\(base)/information")
        router.refuseMethods(except: [.put, .get], on: "\(base)/merchant/:merchantId/order/:orderId/transaction/:transactionId")
        router.refuseMethods(except: [.get], on: "\(base)/merchant/:merchantId/order/:orderId")
    }

    private func putTransaction(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (version, merchant, orderId) = try orderPath(request, context)
        let transactionId = try Self.identifier(context, "transactionId", field: "transaction.id")
        let reader = try RequestReader(
            body: try await Self.body(of: request, limit: maxBodyBytes),
            shape: .transactionRequest
        )
        let operation = try reader.requiredText("apiOperation")
        let transaction = PaymentProcessor.Context(
            merchant: merchant,
            orderId: orderId,
            transactionId: transactionId,
            version: version,
            requestHash: Array(SHA256.hash(data: reader.root.serialized()))
        )
        let responseBody: [UInt8]
        if let paymentOperation = PaymentRequest.Operation(rawValue: operation) {
            let payment = try PaymentRequest(reading: reader, operation: paymentOperation)
            responseBody = try await processor.process(payment, transaction, logger: context.logger)
        } else if let followOn = FollowOnRequest.Operation(rawValue: operation) {
            let request = try FollowOnRequest(reading: reader, operation: followOn)
            responseBody = try await orderOperations.process(request, transaction, logger: context.logger)
        } else {
            throw GatewayError.invalidValue("apiOperation", operation, "Operation is not supported")
        }
        return Self.json(.created, bytes: responseBody)
    }

    /// The transaction's response as it was returned when it was processed.
    private func getTransaction(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant, orderId) = try orderPath(request, context)
        let transactionId = try Self.identifier(context, "transactionId", field: "transaction.id")
        guard
            let stored = try await processor.store.transaction(
                merchantId: merchant.id,
                orderId: orderId,
                transactionId: transactionId
            )
        else { throw GatewayError.notFound("No transaction '\(transactionId)' on order '\(orderId)'") }
        return Self.json(.ok, bytes: stored.responseBody)
    }

    private func getOrder(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant, orderId) = try orderPath(request, context)
        guard let order = try await processor.store.order(merchantId: merchant.id, orderId: orderId) else {
            throw GatewayError.notFound("No order '\(orderId)'")
        }
        let transactions = try await processor.store.transactions(merchantId: merchant.id, orderId: orderId)
        return Self.json(
            .ok,
            OrderRetrieval.json(
                merchantId: merchant.id,
                orderId: orderId,
                order: order,
                transactions: transactions.map(\.responseBody)
            )
        )
    }

    /// What every order path starts with: the API version, the authenticated merchant (who must
    /// be the one in the path) and the order id.
    private func orderPath(
        _ request: Request,
        _ context: GatewayRequestContext
    ) throws(GatewayError)
        -> (version: String, merchant: Merchant, orderId: String)
    {
        let version = try Self.version(context)
        let merchant = try authentication.authenticate(request, pathMerchantId: context.parameters.get("merchantId") ?? "")
        return (version, merchant, try Self.identifier(context, "orderId", field: "order.id"))
    }

    private static func version(_ context: GatewayRequestContext) throws(GatewayError) -> String {
        let text = context.parameters.get("version") ?? ""
        guard let number = Int(text), versions.contains(number), String(number) == text else {
            throw GatewayError.notFound("API version '\(text.prefix(16))' is not supported; use 39 to 100")
        }
        return text
    }

    private static func identifier(
        _ context: GatewayRequestContext,
        _ name: String,
        field: String
    ) throws(GatewayError)
        -> String
    {
        let value = context.parameters.get(name) ?? ""
        guard (1...40).contains(value.count), value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw GatewayError.invalidValue(field, value, "Identifiers are 1 to 40 printable ASCII characters")
        }
        return value
    }

    /// The whole request body, refused beyond `server.maxBodyBytes`.
    static func body(of request: Request, limit: Int) async throws -> [UInt8] {
        var request = request
        do {
            return Array(buffer: try await request.collectBody(upTo: limit))
        } catch {
            throw GatewayError(
                status: .contentTooLarge,
                cause: .invalidRequest,
                explanation: "The request body is larger than \(limit) bytes"
            )
        }
    }

    static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
        json(status, bytes: value.serialized())
    }

    static func json(_ status: HTTPResponse.Status, bytes: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json;charset=UTF-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
