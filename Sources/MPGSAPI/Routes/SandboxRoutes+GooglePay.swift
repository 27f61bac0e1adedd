import Foundation
import GatewayCore
import GatewayHTTP
import GooglePaySandbox
import GooglePayToken
import Hummingbird
import WireJSON

extension SandboxRoutes {
    static let googlePayRequestShape = FieldShape.object(
        Dictionary(uniqueKeysWithValues: GooglePaySandboxOptions.fields.map { ($0.name, FieldShape.text) })
            .merging(["sessionId": .text]) { $1 }
    )

    /// `POST /sandbox/merchant/{merchantId}/googlepay/token`: an ECv2 token signed under the
    /// sandbox Google root, for the merchant's recipient id and encrypted to its newest Google Pay
    /// key, as Google's servers would make it. With `sessionId`, put into that session.
    func mintGooglePayToken(_ request: Request, _ context: GatewayRequestContext) async throws -> Response {
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        let reader = try RequestReader(body: try await GatewayRoutes.body(of: request, limit: maxBodyBytes), shape: Self.googlePayRequestShape)
        guard let minter = googlePay else { throw GatewayError.notFound() }
        var options = GooglePaySandboxOptions()
        for field in GooglePaySandboxOptions.fields { options[keyPath: field.value] = reader.text(field.name) }
        let session = try await requestedSession(reader, merchant: merchant)
        let message = try options.mintRequest(merchantId: merchant.id, now: clock())
        let token = try minter.mint(message, for: merchant)
        context.logger.info("sandbox Google Pay token minted", metadata: ["merchant": .string(merchant.id)])
        var fields: [String: JSONValue] = [
            "paymentToken": .string(token),
            "protocolVersion": .string("ECv2"),
            "authMethod": .string(message.authMethod.rawValue),
            "messageExpiration": .string(ISO8601DateFormatter().string(from: message.messageExpiration)),
            "recipientId": .string(merchant.googlePay?.recipientId ?? ""),
        ]
        if let session { fields["session"] = try await fill(session, token: token, wallet: .googlePay) }
        return GatewayRoutes.json(.ok, .object(fields))
    }
}
