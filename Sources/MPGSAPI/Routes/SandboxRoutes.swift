import ApplePayToken
import Foundation
import GatewayCore
import GatewayHTTP
import GooglePaySandbox
import Hummingbird
import WireJSON

/// `POST /sandbox/merchant/{merchantId}/applepay/token`: mints a sandbox Apple Pay token for the
/// posted amount, so a test suite can mint and then AUTHORIZE; `.../googlepay/token` a Google Pay
/// one. Registered only in sandbox mode; elsewhere the paths do not exist (404).
package struct SandboxRoutes: Sendable {
    let authentication: MerchantAuthentication
    let issuer: SandboxTokenIssuer
    let sessions: SessionService
    /// Signs Google Pay tokens under the sandbox Google root.
    let googlePay: GooglePayTokenMinter?
    let maxBodyBytes: Int
    let clock: @Sendable () -> Date

    package init(
        authentication: MerchantAuthentication,
        issuer: SandboxTokenIssuer,
        sessions: SessionService,
        googlePay: GooglePayTokenMinter? = nil,
        maxBodyBytes: Int,
        clock: @escaping @Sendable () -> Date
    ) {
        self.authentication = authentication
        self.issuer = issuer
        self.sessions = sessions
        self.googlePay = googlePay
        self.maxBodyBytes = maxBodyBytes
        self.clock = clock
    }

    static let tokenRequestShape = FieldShape.object(
        Dictionary(uniqueKeysWithValues: SandboxTokenOptions.fields.map { ($0.name, FieldShape.text) })
            .merging(["sessionId": .text]) { $1 }
    )

    package func register(on router: Router<GatewayRequestContext>) {
        let path: RouterPath = "/sandbox/merchant/:merchantId/applepay/token"
        router.post(path) { request, context in
            try await mintToken(request, context)
        }
        router.refuseMethods(except: [.post], on: path)
        if googlePay != nil {
            let googlePayPath: RouterPath = "/sandbox/merchant/:merchantId/googlepay/token"
            router.post(googlePayPath) { request, context in
                try await mintGooglePayToken(request, context)
            }
            router.refuseMethods(except: [.post], on: googlePayPath)
        }
    }

    private func mintToken(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        let reader = try RequestReader(body: try await GatewayRoutes.body(of: request, limit: maxBodyBytes), shape: Self.tokenRequestShape)
        var options = SandboxTokenOptions()
        for field in SandboxTokenOptions.fields { options[keyPath: field.value] = reader.text(field.name) }
        let session = try await requestedSession(reader, merchant: merchant)
        let minted = try issuer.mint(options, for: merchant, now: clock())
        context.logger.info(
            "sandbox token minted",
            metadata: ["merchant": .string(merchant.id), "version": .string(minted.version)]
        )
        guard let session, case .object(var fields) = minted.json else { return GatewayRoutes.json(.ok, minted.json) }
        fields["session"] = try await fill(session, token: minted.paymentToken, wallet: .applePay)
        return GatewayRoutes.json(.ok, .object(fields))
    }
}

extension SandboxRoutes {
    /// `sessionId`'s session, opened before anything is minted: the sandbox stands in for the
    /// device and puts the token into it. Nil without one.
    func requestedSession(_ reader: RequestReader, merchant: Merchant) async throws -> SessionService.OpenSession? {
        guard let sessionId = reader.text("sessionId") else { return nil }
        guard let opened = try await sessions.open(id: sessionId, merchantId: merchant.id) else {
            throw GatewayError.invalid("sessionId", "Session not found or expired")
        }
        return opened
    }

    /// Puts `token` into the session as the device would; the session as the answer shows it.
    func fill(_ session: SessionService.OpenSession, token: String, wallet: WalletProvider) async throws -> JSONValue {
        let updated = try await sessions.update(session, with: Self.deviceUpdate(token: token, wallet: wallet))
        return .object([
            "id": .string(updated.id), "version": .string(updated.stored.version),
            "updateStatus": .string(updated.stored.updateStatus.rawValue),
        ])
    }

    /// What the Mobile SDK puts into a session after the wallet authorized: the token and the wallet.
    static func deviceUpdate(token: String, wallet: WalletProvider) -> JSONValue {
        .object([
            "order": .object(["walletProvider": .string(wallet.rawValue)]),
            "sourceOfFunds": .object([
                "type": .string("CARD"),
                "provided": .object(["card": .object(["devicePayment": .object(["paymentToken": .string(token)])])]),
            ]),
        ])
    }
}
