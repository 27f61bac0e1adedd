import ApplePayToken
import GatewayCore
import GatewayHTTP
import Hummingbird
import WireJSON

/// Create, Update and Retrieve Session: `/api/rest/version/{v}/merchant/{id}/session[/{sessionId}]`.
/// No session id, content or card data is logged: the id is the Mobile SDK's credential.
package struct SessionRoutes: Sendable {
    let authentication: MerchantAuthentication
    let sessions: SessionService
    /// Reads a stored token for the session's view only; nothing is recorded.
    let decryptor: ApplePayTokenDecryptor
    let maxBodyBytes: Int

    package init(
        authentication: MerchantAuthentication,
        sessions: SessionService,
        decryptor: ApplePayTokenDecryptor,
        maxBodyBytes: Int
    ) {
        self.authentication = authentication
        self.sessions = sessions
        self.decryptor = decryptor
        self.maxBodyBytes = maxBodyBytes
    }

    /// The gateway's default and ceiling for `session.authenticationLimit`.
    static let authenticationLimits = (default: 5, range: 1...25)

    package func register(on router: Router<GatewayRequestContext>) {
        let base = "/api/rest/version/:version/merchant/:merchantId/session"
        router.post(RouterPath(base)) { request, context in try await create(request, context) }
        // The payer's browser updates its session cross-origin (Apple Pay on a Hosted Session
        // page), as the mobile SDKs do from the device: CORS for Update Session only.
        router.put("\(base)/:sessionId") { request, context in await Self.crossOrigin(request, context) { try await update($0, $1) } }
        router.on("\(base)/:sessionId", method: .options) { _, _ in Self.updatePreflight }
        router.get("\(base)/:sessionId") { request, context in try await retrieve(request, context) }
        router.refuseMethods(except: [.post], on: RouterPath(base))
        router.refuseMethods(except: [.put, .get, .options], on: "\(base)/:sessionId")
    }

    private func create(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let version = try GatewayRoutes.version(context)
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        // The body is optional; when there is one, it may already hold what Update Session takes.
        let body = try await GatewayRoutes.body(of: request, limit: maxBodyBytes)
        var content = JSONValue.object([:])
        var limit = Self.authenticationLimits.default
        if !body.isEmpty {
            // The operation decides the body's shape: a checkout session's, or a plain session's.
            var checkout: CheckoutOperation?
            let reader = try RequestReader(body: body) { (root: JSONValue) throws(GatewayError) -> FieldShape in
                checkout = root["apiOperation"]?.stringValue.flatMap(CheckoutOperation.init(rawValue:))
                return checkout == nil ? .createSession(version: version.number) : .initiateCheckout(version: version.number)
            }
            if let checkout {
                return try await createCheckout(reader, checkout, merchant: merchant, version: version, logger: context.logger)
            }
            try SessionContent.refuseNulls(reader.root)
            if let text = reader.text("session.authenticationLimit") {
                guard let value = Int(text), Self.authenticationLimits.range.contains(value) else {
                    throw GatewayError.invalidValue("session.authenticationLimit", text, "Must be an integer from 1 to 25")
                }
                limit = value
            }
            content = SessionContent.storable(reader.root)
            try SessionContent.validate(content)
        }
        let session = try await sessions.create(merchantId: merchant.id, content: content, authenticationLimit: limit)
        context.logger.info("session created", metadata: ["merchant": .string(merchant.id)])
        var json = Self.view(session, merchantId: merchant.id, version: version)
        if case .object(var members) = json, case .object(var fields) = members["session"] {
            fields["aes256Key"] = .string(session.aes256Key)
            members["session"] = .object(fields)
            members["result"] = .string("SUCCESS")
            json = .object(members)
        }
        return GatewayRoutes.json(.created, json)
    }

    private func update(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let version = try GatewayRoutes.version(context)
        let sessionId = context.parameters.get("sessionId") ?? ""
        let (merchant, credential) = try authentication.authenticateSessionUpdate(
            request,
            context,
            pathMerchantId: context.parameters.get("merchantId") ?? "",
            sessionId: sessionId,
            version: version.number
        )
        guard let session = try await sessions.open(id: sessionId, merchantId: merchant.id) else {
            // A session credential for no live session is no credential at all.
            throw credential.isPayer ? GatewayError.invalidCredentials : SessionRejection.notFound.gatewayError
        }
        let reader = try RequestReader(
            body: try await GatewayRoutes.body(of: request, limit: maxBodyBytes),
            shape: .updateSession(version: version.number)
        )
        try SessionContent.refuseNulls(reader.root)
        let operation = reader.text("apiOperation")
        // Hosted Session integrations (WooCommerce's module, the Java sample) name the operation UPDATE_SESSION.
        if let operation, operation != "UPDATE_PAYER_DATA", operation != "UPDATE_SESSION" {
            throw GatewayError.invalidValue(
                "apiOperation",
                operation,
                "Update Session takes UPDATE_SESSION, UPDATE_PAYER_DATA or no apiOperation"
            )
        }
        // Without Authorization the body's operation is what says this is the payer's update.
        if credential == .sessionIdInPath, operation == nil { throw GatewayError.invalidCredentials }
        try session.stored.checkUpdatable()
        try session.stored.checkVersion(reader.text("session.version"))
        if credential.isPayer { try Self.refuseMerchantFields(reader.root) }
        let update = SessionContent.storable(reader.root)
        try SessionContent.validate(SessionContent.merged(session.content, update))
        let updated = try await sessions.update(session, with: update)
        context.logger.info("session updated", metadata: ["merchant": .string(merchant.id)])
        let view = Self.view(updated, merchantId: merchant.id, version: version)
        return GatewayRoutes.json(.ok, await describingStoredToken(view, content: updated.content, merchant: merchant))
    }

    /// What only the merchant sets: the amount and currency the payer is charged, and the rest
    /// of the order and transaction. The payer's device (the session credential) may put its
    /// card or wallet token, the wallet provider and its own details into the session.
    static func refuseMerchantFields(_ root: JSONValue) throws(GatewayError) {
        guard case .object(let members) = root else { return }
        if case .object(let order) = members["order"] {
            for key in order.keys.sorted() where key != "walletProvider" {
                throw GatewayError.invalid(
                    "order.\(key)",
                    "The session credential (the payer's device) may not set order.\(key): the merchant sets it"
                )
            }
        }
        for key in ["transaction", "partnerSolutionId", "merchant"] where members[key] != nil {
            throw GatewayError.invalid(key, "The session credential (the payer's device) may not set \(key): the merchant sets it")
        }
    }

    private func retrieve(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let version = try GatewayRoutes.version(context)
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        guard let session = try await sessions.open(id: context.parameters.get("sessionId") ?? "", merchantId: merchant.id)
        else { throw SessionRejection.notFound }
        let view = Self.view(session, merchantId: merchant.id, version: version)
        return GatewayRoutes.json(.ok, await describingStoredToken(view, content: session.content, merchant: merchant))
    }

    /// The session as the gateway shows it: its content masked, with `merchant`, `session` and
    /// the API `version`.
    static func view(_ session: SessionService.OpenSession, merchantId: String, version: APIVersion) -> JSONValue {
        guard case .object(var members) = SessionContent.masked(session.content) else { return .object([:]) }
        members["merchant"] = .string(merchantId)
        members["version"] = .string(version.description)
        members["session"] = .object([
            "id": .string(session.id),
            "version": .string(session.stored.version),
            "updateStatus": .string(session.stored.shownUpdateStatus.rawValue),
            "authenticationLimit": .integer(Int64(session.stored.authenticationLimit)),
        ])
        return .object(members)
    }
}
