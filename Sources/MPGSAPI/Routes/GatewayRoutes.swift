import ApplePayToken
import Crypto
import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird
import NIOCore
import WireJSON

/// The MPGS REST surface: `/api/rest/version/{version}/...`.
package struct GatewayRoutes: Sendable {
    package let authentication: MerchantAuthentication
    package let processor: PaymentProcessor
    let orderOperations: OrderOperationProcessor
    let maxBodyBytes: Int
    /// Told of token rejections found before the core sees the token.
    let metrics: any PaymentObserver
    let sessions: SessionService
    let fingerprinter: RequestFingerprinter
    /// Resolves `sourceOfFunds.token` to its card before the core sees the payment.
    let tokens: TokenService
    /// 3-D Secure: INITIATE_AUTHENTICATION, AUTHENTICATE_PAYER and their transactions.
    let authentications: AuthenticationProcessor
    /// Issue 64: records browser payments (sandbox mode only: nil otherwise).
    package let browserPayments: BrowserPaymentProcessor?

    package init(
        authentication: MerchantAuthentication,
        processor: PaymentProcessor,
        orderOperations: OrderOperationProcessor,
        maxBodyBytes: Int,
        metrics: any PaymentObserver,
        sessions: SessionService,
        fingerprinter: RequestFingerprinter,
        tokens: TokenService,
        authentications: AuthenticationProcessor? = nil,
        browserPayments: BrowserPaymentProcessor? = nil
    ) {
        self.browserPayments = browserPayments
        self.authentications =
            authentications
            ?? AuthenticationProcessor(store: NoAuthenticationStore(), locks: OrderLocks(), clock: { Date() }, simulated: false)
        self.authentication = authentication
        self.processor = processor
        self.orderOperations = orderOperations
        self.maxBodyBytes = maxBodyBytes
        self.metrics = metrics
        self.sessions = sessions
        self.fingerprinter = fingerprinter
        self.tokens = tokens
    }

    package func register(on router: Router<GatewayRequestContext>) {
        let base = "/api/rest/version/:version"
        router.get("\(base)/information") { _, context in
            _ = try Self.version(context)
            return Self.json(.ok, .object(["status": .string("OPERATING")]))
        }
        router.put("\(base)/merchant/:merchantId/order/:orderId/transaction/:transactionId") { request, context in
            do {
                return try await putTransaction(request, context)
            } catch let error as GatewayError {
                if let rejection = error.unparsedTokenRejection { metrics.tokenRejected(rejection) }
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
        // Issue 30.
        registerPaymentOptions(on: router, base: base)
        // Issue 64: 3-D Secure 1.
        registerThreeDS1(on: router, base: base)
    }

    private func putTransaction(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let version = try Self.version(context)
        let pathMerchantId = context.parameters.get("merchantId") ?? ""
        let merchant: Merchant
        let credential: MerchantAuthentication.Credential
        // threeDS.js authenticates the payer from the browser with the session credential: looked
        // at only when the API password is not there, so the merchant's requests pay nothing for it.
        var payerSession: (merchant: Merchant, sessionId: String)?
        do {
            (merchant, credential) = try authentication.authenticateCaller(request, context, pathMerchantId: pathMerchantId)
        } catch {
            guard let payer = authentication.payerSessionCaller(request, context, pathMerchantId: pathMerchantId) else { throw error }
            payerSession = payer
            (merchant, credential) = (payer.merchant, .apiPassword)
        }
        let orderId = try Self.identifier(context, "orderId", field: "order.id")
        let transactionId = try Self.identifier(context, "transactionId", field: "transaction.id")
        let catalogue = RequestCatalogue.transactionRequest
        var operation = APIOperation.pay
        var shape = FieldShape.any
        let reader = try RequestReader(body: try await Self.body(of: request, limit: maxBodyBytes)) {
            (root: JSONValue) throws(GatewayError) -> FieldShape in
            operation = try Self.operation(root)
            shape = catalogue.shape(for: operation, version: version.number)
            return shape
        }
        if let payerSession {
            // It opens 3-D Secure for its own session and nothing else.
            guard case .authentication = operation, reader.text("session.id") == payerSession.sessionId else {
                throw GatewayError.invalidCredentials
            }
        }
        let sensitiveData = try SensitiveDataControl.read(reader, credential: credential)
        let transaction = PaymentProcessor.Context(
            merchant: merchant,
            orderId: orderId,
            transactionId: transactionId,
            version: version,
            fingerprint: fingerprinter.fingerprint(
                canonical: reader.root.removingSecurityCodes().serialized(),
                legacyHashInput: { [root = reader.root] in root.serialized() }
            ),
            encoding: MPGSResponseEncoder()
        )
        let processed: ProcessedTransaction
        var revealed: RevealedCard?
        switch operation {
        case .initial(let paymentOperation):
            // A retry is answered from the store: the session may be gone after its use, the
            // token deleted.
            if reader.text("session.id") != nil || reader.text("sourceOfFunds.token") != nil,
                let stored = try await processor.store.transaction(
                    merchantId: merchant.id,
                    orderId: orderId,
                    transactionId: transactionId
                )
            {
                return Self.json(.created, bytes: try transaction.retry(stored).responseBody)
            }
            (processed, revealed) = try await payInitial(
                reader,
                shape: shape,
                operation: paymentOperation,
                transaction,
                revealing: sensitiveData == .unmask,
                logger: context.logger
            )
        case .followOn(let followOn):
            if reader.value("session") != nil {
                throw GatewayError.unsupported("session.id", operation.rawValue, "A session pays only AUTHORIZE, PAY or VERIFY")
            }
            var request = try FollowOnRequest.reading(reader, operation: followOn)
            request.echo = RequestEcho(catalogue.echo(of: reader.root, shape: shape))
            processed = try await orderOperations.process(request, transaction, logger: context.logger)
        case .authentication(let authenticationOperation):
            return try await authenticate(authenticationOperation, reader, request, transaction)
        case .browserPayment(.initiate):
            return try await initiateBrowserPayment(reader, shape: shape, transaction, request)
        case .browserPayment(.confirm):
            return try await confirmBrowserPayment(reader, shape: shape, transaction, logger: context.logger)
        case .browserPayment(.update):
            return try await updateBrowserPayment(reader, shape: shape, transaction)
        }
        if let revealed {
            return Self.json(.created, bytes: SensitiveDataControl.unmasked(processed.responseBody, revealing: revealed))
        }
        return Self.json(.created, bytes: processed.responseBody)
    }

    /// The body's `apiOperation`, which decides the fields the rest of the body may carry.
    static func operation(_ root: JSONValue) throws(GatewayError) -> APIOperation {
        let text: String
        switch root["apiOperation"] {
        case .string(let string) where !string.isEmpty: text = string
        case nil, .null, .string: throw GatewayError.missing("apiOperation")
        default: throw GatewayError.invalid("apiOperation", "Value for 'apiOperation' must be a string")
        }
        guard let operation = APIOperation(rawValue: text) else {
            throw GatewayError.invalidValue("apiOperation", text, "Operation is not supported")
        }
        return operation
    }

    /// The transaction's response as it was returned when it was processed (rendered from the
    /// stored transaction when another API processed it).
    private func getTransaction(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant, orderId) = try orderPath(request, context)
        let transactionId = try Self.identifier(context, "transactionId", field: "transaction.id")
        guard
            let stored = try await processor.store.transaction(
                merchantId: merchant.id,
                orderId: orderId,
                transactionId: transactionId
            )
        else {
            if let authentication = try await authentications.store.authentication(
                merchantId: merchant.id,
                orderId: orderId,
                transactionId: transactionId
            ) {
                return Self.json(.ok, AuthenticationResponse.json(authentication, acsURL: Self.acsURL(request)))
            }
            throw GatewayError.notFound("No transaction '\(transactionId)' on order '\(orderId)'")
        }
        return Self.json(.ok, bytes: stored.responseBody(in: MPGSResponseEncoder()))
    }

    private func getOrder(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant, orderId) = try orderPath(request, context)
        let authentications = try await authentications.store.authentications(merchantId: merchant.id, orderId: orderId)
        guard let order = try await processor.store.order(merchantId: merchant.id, orderId: orderId) else {
            if let latest = authentications.last {
                return Self.json(.ok, OrderRetrieval.json(authenticated: latest, authentications: authentications, acsURL: Self.acsURL(request)))
            }
            throw GatewayError.notFound("No order '\(orderId)'")
        }
        let transactions = try await processor.store.transactions(merchantId: merchant.id, orderId: orderId)
        return Self.json(
            .ok,
            OrderRetrieval.json(
                merchantId: merchant.id,
                orderId: orderId,
                order: order,
                transactions: transactions.map(\.receipt),
                authentications: authentications.map { AuthenticationResponse.json($0, acsURL: Self.acsURL(request)) }
            )
        )
    }

    /// What every order path starts with: the API version, the authenticated merchant (who must
    /// be the one in the path) and the order id.
    private func orderPath(
        _ request: Request,
        _ context: GatewayRequestContext
    ) throws(GatewayError)
        -> (version: APIVersion, merchant: Merchant, orderId: String)
    {
        let version = try Self.version(context)
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        return (version, merchant, try Self.identifier(context, "orderId", field: "order.id"))
    }

    static func version(_ context: GatewayRequestContext) throws(GatewayError) -> APIVersion {
        let text = context.parameters.get("version") ?? ""
        guard let version = APIVersion(text) else {
            let range = APIVersion.supported
            throw GatewayError.notFound("API version '\(text.prefix(16))' is not supported; use \(range.lowerBound) to \(range.upperBound)")
        }
        return version
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

    /// The whole request body, refused beyond `server.maxBodyBytes`: at once when its declared
    /// length is over (a client waiting for `100 Continue` is not kept waiting), else when the
    /// bytes pass the limit. A body the HTTP parser cannot frame (malformed chunks, an unsupported
    /// Transfer-Encoding) is a malformed request, not a large one.
    static func body(of request: Request, limit: Int) async throws -> [UInt8] {
        do {
            return try await RequestBytes.collect(request, limit: limit)
        } catch .tooLarge(let limit) {
            throw GatewayError(status: .contentTooLarge, cause: .invalidRequest, explanation: "The request body is larger than \(limit) bytes")
        } catch .malformed(let why) {
            throw GatewayError.malformedHTTP(why)
        }
    }

    package static func json(_ status: HTTPResponse.Status, _ value: JSONValue) -> Response {
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
