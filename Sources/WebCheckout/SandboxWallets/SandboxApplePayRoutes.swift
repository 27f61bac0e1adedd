import ApplePaySandbox
import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import HTTPTypes
import Hummingbird
import MPGSAPI
import NIOCore
import WireJSON

/// The sandbox Apple Pay for the web: `/sandbox/applepay/apple-pay.js`, a drop-in
/// `ApplePaySession`, and the endpoints it and the merchant's server call. Sandbox mode only.
///
/// - `POST /sandbox/applepay/validate` (the merchant's server, at the `validationURL`):
///   `{merchantIdentifier, displayName, initiative: "web", initiativeContext}` -> a merchant session.
/// - `POST /sandbox/applepay/session` (the sheet, from the merchant's page, CORS):
///   `{merchantSession}` -> `{displayName, domainName, expiresAt}` when the session may pay.
/// - `POST /sandbox/applepay/payment` (the sheet, CORS): `{merchantSession, total, currencyCode,
///   countryCode, card}` -> an `ApplePayPayment` whose token is minted for that total.
package struct SandboxApplePayRoutes: Sendable {
    let merchants: SandboxApplePayMerchants
    let issuer: SandboxTokenIssuer
    let signer: ApplePayMerchantSessionSigner
    let maxBodyBytes: Int
    let clock: @Sendable () -> Date

    package init(
        merchants: [String: Merchant],
        issuer: SandboxTokenIssuer,
        maxBodyBytes: Int,
        clock: @escaping @Sendable () -> Date
    ) {
        self.merchants = SandboxApplePayMerchants(merchants)
        self.issuer = issuer
        // Every replica shares the authority, so every replica checks every other's sessions.
        self.signer = ApplePayMerchantSessionSigner(key: issuer.authority.derivedKey(purpose: "apple pay merchant session"))
        self.maxBodyBytes = maxBodyBytes
        self.clock = clock
    }

    static let scriptPath = "/sandbox/applepay/apple-pay.js"

    package func register(on router: Router<GatewayRequestContext>) {
        let script = RouterPath(stringLiteral: Self.scriptPath)
        router.get(script) { _, _ in BrowserResponse.script(ApplePayScript.source) }
        router.refuseMethods(except: [.get], on: script)

        let validate: RouterPath = "/sandbox/applepay/validate"
        router.post(validate) { request, context in
            await answer(request, context) { body throws(SandboxApplePayError) in try validateMerchant(body, context) }
        }
        router.refuseMethods(except: [.post], on: validate)

        registerCrossOrigin("/sandbox/applepay/session", on: router) { body, request, context throws(SandboxApplePayError) in
            try checkSession(body, request, context)
        }
        registerCrossOrigin("/sandbox/applepay/payment", on: router) { body, request, context throws(SandboxApplePayError) in
            try pay(body, request, context)
        }
    }

    /// A POST the sheet makes from the merchant's page: answered with CORS headers, preflight included.
    private func registerCrossOrigin(
        _ path: RouterPath,
        on router: Router<GatewayRequestContext>,
        _ handler: @escaping @Sendable (SandboxApplePayFields, Request, GatewayRequestContext) throws(SandboxApplePayError) -> JSONValue
    ) {
        router.post(path) { request, context in
            await answer(request, context, crossOrigin: true) { body throws(SandboxApplePayError) in try handler(body, request, context) }
        }
        router.on(path, method: .options) { _, _ in Self.preflight }
        router.refuseMethods(except: [.post, .options], on: path)
    }

    // MARK: - The endpoints

    private func validateMerchant(
        _ body: SandboxApplePayFields,
        _ context: GatewayRequestContext
    ) throws(SandboxApplePayError)
        -> JSONValue
    {
        let request = try MerchantValidationRequest(reading: body)
        let hash = SandboxApplePayMerchants.hash(of: request.merchantIdentifier)
        guard let merchant = merchants.merchant(identifierHash: hash) else {
            throw .invalid(
                "merchantIdentifier",
                "No merchant here has an Apple Pay identity for merchant identifier '\(request.merchantIdentifier.prefix(128))'; \(merchants.configured)"
            )
        }
        let session = signer.issue(merchantIdentifierHash: hash, domainName: request.domainName, displayName: request.displayName, now: clock())
        context.logger.info(
            "sandbox Apple Pay merchant session issued",
            metadata: ["merchant": .string(merchant.id), "domain": .string(request.domainName)]
        )
        return session.json
    }

    private func checkSession(
        _ body: SandboxApplePayFields,
        _ request: Request,
        _ context: GatewayRequestContext
    ) throws(SandboxApplePayError)
        -> JSONValue
    {
        let session = try ApplePayMerchantSession(reading: try body.object("merchantSession"))
        _ = try payingMerchant(session, request)
        return .object([
            "displayName": .string(session.displayName),
            "domainName": .string(session.domainName),
            "expiresAt": .integer(session.expiresAt),
        ])
    }

    private func pay(_ body: SandboxApplePayFields, _ request: Request, _ context: GatewayRequestContext) throws(SandboxApplePayError) -> JSONValue {
        let payment = try SandboxApplePayPaymentRequest(reading: body)
        let merchant = try payingMerchant(payment.merchantSession, request)
        let minted: SandboxTokenIssuer.MintedToken
        do {
            minted = try issuer.mint(payment.tokenOptions, for: merchant, now: clock())
        } catch {
            // The issuer names its own fields; the sheet's names are these.
            let field = error.field.map { $0 == "amount" ? "total.amount" : $0 == "currency" ? "currencyCode" : $0 }
            throw SandboxApplePayError(status: error.status, field: field, validationType: .invalid, explanation: error.explanation)
        }
        guard let answer = SandboxApplePayPaymentRequest.applePayPayment(paymentToken: minted.paymentToken, card: payment.card) else {
            throw SandboxApplePayError(status: .internalServerError, explanation: "The sandbox could not mint the token")
        }
        // Nothing of the token or the card: the merchant and what was asked.
        context.logger.info(
            "sandbox Apple Pay payment token minted",
            metadata: ["merchant": .string(merchant.id), "currency": .string(payment.currencyCode)]
        )
        return answer
    }

    /// The merchant a valid, unexpired session issued for the paying page's domain pays to.
    private func payingMerchant(_ session: ApplePayMerchantSession, _ request: Request) throws(SandboxApplePayError) -> Merchant {
        try signer.check(session, now: clock(), originHost: request.headers[.origin].map(Self.host(ofOrigin:)))
        guard let hash = Hex.decode(session.merchantIdentifier), let merchant = merchants.merchant(identifierHash: hash) else {
            throw .invalid("merchantSession.merchantIdentifier", "No merchant here has this Apple Pay identity any more")
        }
        return merchant
    }

    // MARK: - HTTP

    /// Reads the JSON body, runs `handler`, and answers its JSON or its refusal: either with
    /// the CORS headers a merchant page needs to read it when `crossOrigin`.
    private func answer(
        _ request: Request,
        _ context: GatewayRequestContext,
        crossOrigin: Bool = false,
        _ handler: (SandboxApplePayFields) throws(SandboxApplePayError) -> JSONValue
    ) async -> Response {
        var response: Response
        do {
            let bytes: [UInt8]
            do {
                bytes = try await RequestBytes.collect(request, limit: maxBodyBytes)
            } catch .tooLarge(let limit) {
                throw SandboxApplePayError(status: .contentTooLarge, explanation: "The request body is larger than \(limit) bytes")
            } catch .malformed(let why) {
                throw SandboxApplePayError.request("Malformed HTTP request: \(why)")
            }
            response = BrowserResponse.json(.ok, try handler(try SandboxApplePayFields(body: bytes)))
        } catch let error as SandboxApplePayError {
            response = BrowserResponse.json(error.status, error.body)
        } catch {
            response = BrowserResponse.json(.badRequest, SandboxApplePayError.request("The request could not be read").body)
        }
        if crossOrigin { Self.allowAnyOrigin(&response.headers) }
        return response
    }

    /// Any page may call the sheet's endpoints (the merchant's origin is not known in advance);
    /// no credentials are involved, so `*` gives nothing away.
    private static func allowAnyOrigin(_ headers: inout HTTPFields) {
        headers[.accessControlAllowOrigin] = "*"
    }

    private static var preflight: Response {
        var headers: HTTPFields = [
            .accessControlAllowMethods: "POST",
            .accessControlAllowHeaders: "Content-Type",
            .accessControlMaxAge: "600",
            .cacheControl: "no-store",
        ]
        allowAnyOrigin(&headers)
        return Response(status: .noContent, headers: headers)
    }

    /// `https://shop.example:8443` -> `shop.example`; an origin that is no URL (`null`) stays as it is.
    static func host(ofOrigin origin: String) -> String {
        URL(string: origin)?.host ?? origin
    }
}
