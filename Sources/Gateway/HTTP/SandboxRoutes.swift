import ApplePayToken
import Foundation
import Hummingbird

/// `POST /sandbox/merchant/{merchantId}/applepay/token`: mints a sandbox Apple Pay token for the
/// posted amount, so a test suite can mint and then AUTHORIZE. Registered only in sandbox mode;
/// elsewhere the path does not exist (404).
struct SandboxRoutes: Sendable {
    let authentication: MerchantAuthentication
    let issuer: SandboxTokenIssuer
    let maxBodyBytes: Int
    let clock: @Sendable () -> Date

    static let tokenRequestShape = FieldShape.object(
        Dictionary(uniqueKeysWithValues: SandboxTokenOptions.fields.map { ($0.name, FieldShape.text) })
    )

    func register(on router: Router<GatewayRequestContext>) {
        let path: RouterPath = "/sandbox/merchant/:merchantId/applepay/token"
        router.post(path) { request, context in
            try await mintToken(request, context)
        }
        router.refuseMethods(except: [.post], on: path)
    }

    private func mintToken(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let merchant = try authentication.authenticate(request, pathMerchantId: context.parameters.get("merchantId") ?? "")
        let reader = try RequestReader(body: try await GatewayRoutes.body(of: request, limit: maxBodyBytes), shape: Self.tokenRequestShape)
        var options = SandboxTokenOptions()
        for field in SandboxTokenOptions.fields { options[keyPath: field.value] = reader.text(field.name) }
        let minted = try issuer.mint(options, for: merchant, now: clock())
        context.logger.info(
            "sandbox token minted",
            metadata: ["merchant": .string(merchant.id), "version": .string(minted.version)]
        )
        return GatewayRoutes.json(.ok, minted.json)
    }
}
