import Foundation
import GatewayCore
import GatewayHTTP
import GooglePaySandbox
import GooglePayToken
import HTTPTypes
import Hummingbird
import NIOCore
import WireJSON

/// The sandbox Google Pay for the web: `/sandbox/googlepay/pay.js`, a drop-in
/// `google.payments.api.PaymentsClient`, and the endpoint its sheet gets tokens from. Sandbox
/// mode only.
///
/// - `POST /sandbox/googlepay/payment-data` (the sheet, from the merchant's page, CORS):
///   `{gateway, gatewayMerchantId, card, authMethod}` -> `{paymentMethodData}` whose token is
///   minted for that merchant's recipient.
///
/// No credential, as with Google: a page names its gateway merchant id in the open
/// (`tokenizationSpecification.parameters`), and the token only pays through that merchant's API
/// password, on the merchant's server. Refusals have Google's shape (`{statusCode:
/// "DEVELOPER_ERROR", statusMessage}`), which the script rejects `loadPaymentData` with.
package struct SandboxGooglePayRoutes: Sendable {
    /// The merchants with Google Pay configured, by gateway merchant id.
    let merchants: [String: Merchant]
    let minter: GooglePayTokenMinter
    let maxBodyBytes: Int
    let clock: @Sendable () -> Date

    package init(merchants: [String: Merchant], minter: GooglePayTokenMinter, maxBodyBytes: Int, clock: @escaping @Sendable () -> Date) {
        self.merchants = merchants.filter { $0.value.googlePay != nil }
        self.minter = minter
        self.maxBodyBytes = maxBodyBytes
        self.clock = clock
    }

    package static let scriptPath = "/sandbox/googlepay/pay.js"
    static let paymentDataPath = "/sandbox/googlepay/payment-data"
    /// MPGS's published `gateway` value; a merchant's configured gateway id is accepted too.
    static let publishedGatewayId = "mpgs"

    package func register(on router: Router<GatewayRequestContext>) {
        let script = RouterPath(stringLiteral: Self.scriptPath)
        router.get(script) { _, _ in BrowserResponse.script(GooglePayScript.source) }
        router.refuseMethods(except: [.get], on: script)

        let paymentData = RouterPath(stringLiteral: Self.paymentDataPath)
        router.post(paymentData) { request, context in await answer(request, context) }
        router.on(paymentData, method: .options) { _, _ in
            Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: "*", .accessControlAllowMethods: "POST", .accessControlAllowHeaders: "Content-Type",
                    .accessControlMaxAge: "600", .cacheControl: "no-store",
                ]
            )
        }
        router.refuseMethods(except: [.post, .options], on: paymentData)
    }

    /// The sheet's request answered with CORS headers: its payment method data, or the refusal.
    private func answer(_ request: Request, _ context: GatewayRequestContext) async -> Response {
        var response: Response
        do {
            let bytes: [UInt8]
            do {
                bytes = try await RequestBytes.collect(request, limit: maxBodyBytes)
            } catch .tooLarge(let limit) {
                var error = SandboxGooglePayError.developer("The request body is larger than \(limit) bytes")
                error.status = .contentTooLarge
                throw error
            } catch .malformed(let why) {
                throw SandboxGooglePayError.developer("Malformed HTTP request: \(why)")
            }
            guard let body = try? JSONValue(parsing: bytes), case .object = body else {
                throw SandboxGooglePayError.developer("The request body must be a JSON object")
            }
            response = BrowserResponse.json(.ok, try paymentMethodData(body, context))
        } catch let error as SandboxGooglePayError {
            response = BrowserResponse.json(error.status, error.body)
        } catch {
            response = BrowserResponse.json(.internalServerError, SandboxGooglePayError.internal.body)
        }
        response.headers[.accessControlAllowOrigin] = "*"
        return response
    }

    /// The merchant a page's tokenization parameters name, or why not.
    func merchant(gateway: String, gatewayMerchantId: String) throws(SandboxGooglePayError) -> (Merchant, GooglePayRecipient) {
        guard let merchant = merchants[gatewayMerchantId], let recipient = merchant.googlePay else {
            let configured = merchants.keys.sorted().joined(separator: ", ")
            throw .developer(
                "tokenizationSpecification.parameters.gatewayMerchantId '\(gatewayMerchantId.prefix(64))' is no merchant with Google Pay "
                    + "on this gateway (configured: \(configured.isEmpty ? "none" : configured))"
            )
        }
        let configuredGateway = Self.gatewayId(of: recipient)
        guard gateway == Self.publishedGatewayId || gateway == configuredGateway else {
            throw .developer(
                "tokenizationSpecification.parameters.gateway '\(gateway.prefix(64))' is not this gateway: use "
                    + ([Self.publishedGatewayId, configuredGateway].compactMap { $0 }.uniqued().joined(separator: " or "))
            )
        }
        return (merchant, recipient)
    }

    /// `gateway:<id>` -> `<id>`.
    static func gatewayId(of recipient: GooglePayRecipient) -> String? {
        recipient.recipientId.hasPrefix("gateway:") ? String(recipient.recipientId.dropFirst("gateway:".count)) : nil
    }

    private func paymentMethodData(_ body: JSONValue, _ context: GatewayRequestContext) throws(SandboxGooglePayError) -> JSONValue {
        let gateway = try Self.text(body, "gateway", "tokenizationSpecification.parameters.gateway")
        let gatewayMerchantId = try Self.text(body, "gatewayMerchantId", "tokenizationSpecification.parameters.gatewayMerchantId")
        let (merchant, recipient) = try merchant(gateway: gateway, gatewayMerchantId: gatewayMerchantId)
        let cardId = body["card"]?.stringValue ?? SandboxWalletCard.all[0].id
        guard let card = SandboxWalletCard.card(id: cardId) else {
            throw .developer("card '\(cardId.prefix(64))' is no sandbox card: use \(SandboxWalletCard.all.map(\.id).joined(separator: ", "))")
        }
        let method = body["authMethod"]?.stringValue ?? GooglePayMessage.AuthMethod.panOnly.rawValue
        guard let authMethod = GooglePayMessage.AuthMethod(rawValue: method) else {
            throw .developer("authMethod '\(method.prefix(64))' is invalid: use PAN_ONLY or CRYPTOGRAM_3DS")
        }
        guard let key = recipient.privateKeys.first else { throw .internal }
        var request = GooglePayMintRequest()
        request.authMethod = authMethod
        request.pan = card.primaryAccountNumber
        // The card simulator's approving expiry (01/39): the order's amount decides the rest.
        request.expirationMonth = 1
        request.expirationYear = 2039
        request.gatewayMerchantId = merchant.id
        request.messageExpiration = clock().addingTimeInterval(3600)
        if authMethod == .cryptogram3DS {
            var generator = SystemRandomNumberGenerator()
            request.cryptogram = Data((0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        }
        let token: String
        do {
            token = try minter.mint(request, recipientId: recipient.recipientId, recipientPublicKey: key.publicKey)
        } catch {
            throw .internal
        }
        // Nothing of the token or the card: the merchant and the kind of credential.
        context.logger.info(
            "sandbox Google Pay payment data minted",
            metadata: ["merchant": .string(merchant.id), "authMethod": .string(authMethod.rawValue)]
        )
        return .object(["paymentMethodData": card.googlePaymentMethodData(token: token)])
    }

    private static func text(_ body: JSONValue, _ key: String, _ name: String) throws(SandboxGooglePayError) -> String {
        guard let text = body[key]?.stringValue, !text.isEmpty else { throw .developer("\(name) is required") }
        return text
    }
}

/// A refusal in Google's `PaymentsError` shape, which `loadPaymentData` rejects with.
struct SandboxGooglePayError: Error, Sendable {
    var status: HTTPResponse.Status
    var statusCode: String
    var statusMessage: String

    static func developer(_ message: String) -> SandboxGooglePayError {
        SandboxGooglePayError(status: .badRequest, statusCode: "DEVELOPER_ERROR", statusMessage: message)
    }

    static let `internal` = SandboxGooglePayError(
        status: .internalServerError,
        statusCode: "INTERNAL_ERROR",
        statusMessage: "The sandbox could not mint the token"
    )

    var body: JSONValue { .object(["statusCode": .string(statusCode), "statusMessage": .string(statusMessage)]) }
}

extension SandboxWalletCard {
    /// As Google names it in `CardInfo.cardNetwork`.
    var googleNetwork: String { network.uppercased() }

    /// `PaymentMethodData` as `loadPaymentData` resolves it: the card's network and last four
    /// digits, and the token as `tokenizationData.token` (a JSON string).
    func googlePaymentMethodData(token: String) -> JSONValue {
        let lastFour = String(primaryAccountNumber.suffix(4))
        return .object([
            "type": .string("CARD"),
            "description": .string("\(network) •••• \(lastFour)"),
            "info": .object(["cardNetwork": .string(googleNetwork), "cardDetails": .string(lastFour)]),
            "tokenizationData": .object(["type": .string("PAYMENT_GATEWAY"), "token": .string(token)]),
        ])
    }

    /// The list the Google Pay script shows: ids, networks and last digits, no card numbers.
    static var googlePayScriptList: String {
        String(
            decoding: JSONValue.array(
                all.map { card in
                    .object([
                        "id": .string(card.id), "network": .string(card.googleNetwork), "name": .string(card.network),
                        "lastFour": .string(String(card.primaryAccountNumber.suffix(4))),
                    ])
                }
            ).serialized(),
            as: UTF8.self
        )
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
