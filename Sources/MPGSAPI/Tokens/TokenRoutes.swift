import ApplePayToken
import GatewayCore
import GatewayHTTP
import Hummingbird
import Logging
import WireJSON

/// Tokenization: Create or Update Token (`POST .../token`, gateway-generated; `PUT .../token/{id}`,
/// an existing token's card replaced), Retrieve Token and Delete Token, under
/// `/api/rest/version/{v}/merchant/{id}`. No card number is logged; the token is masked in the
/// log like any long number.
package struct TokenRoutes: Sendable {
    let authentication: MerchantAuthentication
    let tokens: TokenService
    let sessions: SessionService
    let maxBodyBytes: Int

    package init(authentication: MerchantAuthentication, tokens: TokenService, sessions: SessionService, maxBodyBytes: Int) {
        self.authentication = authentication
        self.tokens = tokens
        self.sessions = sessions
        self.maxBodyBytes = maxBodyBytes
    }

    package func register(on router: Router<GatewayRequestContext>) {
        let base = "/api/rest/version/:version/merchant/:merchantId/token"
        router.post(RouterPath(base)) { request, context in try await create(request, context) }
        router.put("\(base)/:tokenId") { request, context in try await update(request, context) }
        router.get("\(base)/:tokenId") { request, context in try await retrieve(request, context) }
        router.delete("\(base)/:tokenId") { request, context in try await delete(request, context) }
        router.refuseMethods(except: [.post], on: RouterPath(base))
        router.refuseMethods(except: [.put, .get, .delete], on: "\(base)/:tokenId")
    }

    private func create(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (version, merchant) = try authenticated(request, context)
        let reader = try await tokenRequest(request, version: version, merchant: merchant)
        return try await verifiedAndStored(reader, merchant, status: .created, existingToken: nil, context, event: "token created") {
            try await tokens.create(merchantId: merchant.id, card: $0.card, format: merchant.tokens.format)
        }
    }

    private func update(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (version, merchant) = try authenticated(request, context)
        guard let token = try await tokens.open(token: context.parameters.get("tokenId") ?? "", merchantId: merchant.id) else {
            // This gateway generates every token (no merchant-supplied repository): PUT updates one it made.
            throw CardTokenRejection.notFound
        }
        let reader = try await tokenRequest(request, version: version, merchant: merchant)
        return try await verifiedAndStored(reader, merchant, status: .ok, existingToken: token.stored.token, context, event: "token updated") {
            try await tokens.update(token, card: $0.card, format: merchant.tokens.format)
        }
    }

    /// Create and Update alike: the card is verified as the request or repository says, and
    /// stored by `store` only when the verification lets it be; a refused card answers with the
    /// verification and no (new) card.
    private func verifiedAndStored(
        _ reader: RequestReader,
        _ merchant: Merchant,
        status: HTTPResponse.Status,
        existingToken: String?,
        _ context: GatewayRequestContext,
        event: Logger.Message,
        store: (TokenRequest) async throws -> TokenService.OpenToken
    ) async throws -> Response {
        let tokenRequest = try TokenRequest.reading(reader, repository: merchant.tokens)
        let verification = await tokenRequest.verify(with: merchant.acquirer)
        let correlationId = reader.text("correlationId")
        guard verification.storesCard else {
            return GatewayRoutes.json(
                status,
                TokenView.notStored(
                    tokenRequest.card,
                    repository: merchant.tokens,
                    strategy: tokenRequest.verificationStrategy,
                    outcome: verification,
                    token: existingToken,
                    correlationId: correlationId
                )
            )
        }
        let stored = try await store(tokenRequest)
        context.logger.info(event, metadata: ["merchant": .string(merchant.id)])
        return GatewayRoutes.json(
            status,
            TokenView.json(
                stored,
                repository: merchant.tokens,
                verification: (tokenRequest.verificationStrategy, verification),
                correlationId: correlationId
            )
        )
    }

    private func retrieve(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant) = try authenticated(request, context)
        guard let token = try await tokens.open(token: context.parameters.get("tokenId") ?? "", merchantId: merchant.id) else {
            throw CardTokenRejection.notFound
        }
        return GatewayRoutes.json(.ok, TokenView.json(token, repository: merchant.tokens, verification: nil, correlationId: nil))
    }

    private func delete(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let (_, merchant) = try authenticated(request, context)
        guard try await tokens.delete(token: context.parameters.get("tokenId") ?? "", merchantId: merchant.id) else {
            throw CardTokenRejection.notFound
        }
        context.logger.info("token deleted", metadata: ["merchant": .string(merchant.id)])
        return GatewayRoutes.json(.ok, .object(["result": .string("SUCCESS")]))
    }

    private func authenticated(_ request: Request, _ context: GatewayRequestContext) throws(GatewayError) -> (APIVersion, Merchant) {
        let version = try GatewayRoutes.version(context)
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        return (version, merchant)
    }

    /// The body, checked against the token request's fields, with the named session's content laid
    /// under it (the reference's precedence: request fields over the session). The session is only
    /// read: tokenizing its card neither claims nor uses it up.
    private func tokenRequest(_ request: Request, version: APIVersion, merchant: Merchant) async throws -> RequestReader {
        let reader = try RequestReader(
            body: try await GatewayRoutes.body(of: request, limit: maxBodyBytes),
            shape: .tokenRequest(version: version.number)
        )
        guard let sessionId = reader.text("session.id") else { return reader }
        guard let session = try await sessions.open(id: sessionId, merchantId: merchant.id) else {
            throw SessionRejection.notFound.inPayment
        }
        try session.stored.checkVersion(reader.text("session.version"))
        return RequestReader(checked: SessionContent.merged(session.content, reader.root))
    }
}
