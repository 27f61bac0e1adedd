import GatewayCore
import GatewayHTTP
import Hummingbird
import WireJSON

/// 3-D Secure 1 (issue 64): `PUT .../merchant/{id}/3DSecureId/{3DSecureId}` with
/// CHECK_3DS_ENROLLMENT, `POST` with PROCESS_ACS_RESULT, and `GET` (Retrieve 3DS), at API versions
/// up to ``ThreeDS1Rejection/lastVersion`` and in sandbox mode only.
extension GatewayRoutes {
    func registerThreeDS1(on router: Router<GatewayRequestContext>, base: String) {
        let path = RouterPath("\(base)/merchant/:merchantId/3DSecureId/:threeDSecureId")
        router.put(path) { request, context in try await threeDS1(request, context, expecting: "CHECK_3DS_ENROLLMENT") }
        router.post(path) { request, context in try await threeDS1(request, context, expecting: "PROCESS_ACS_RESULT") }
        router.get(path) { request, context in
            let (processor, threeDS1Context, _) = try threeDS1Request(request, context)
            guard
                let found = try await processor.store.threeDS1Authentication(
                    merchantId: threeDS1Context.merchantId,
                    threeDSecureId: threeDS1Context.threeDSecureId
                )
            else { throw ThreeDS1Rejection.notFound(threeDSecureId: threeDS1Context.threeDSecureId).gatewayError }
            return Self.json(.ok, ThreeDS1Response.json(found, acsURL: Self.threeDS1ACSURL(request)))
        }
        router.refuseMethods(except: [.put, .post, .get], on: path)
    }

    /// The version, merchant and id every 3-D Secure 1 request starts with, and the refusals
    /// that come before its body: a version without the operations, production mode.
    private func threeDS1Request(
        _ request: Request,
        _ context: GatewayRequestContext
    ) throws -> (ThreeDS1Processor, ThreeDS1Context, Merchant) {
        let version = try Self.version(context)
        let merchant = try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? "")
        let id = context.parameters.get("threeDSecureId") ?? ""
        guard (1...64).contains(id.count), id.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw GatewayError.invalidValue("3DSecureId", id, "A 3D Secure Id is 1 to 64 printable ASCII characters")
        }
        guard let processor = authentications.threeDS1 else { throw ThreeDS1Rejection.notEnabled.gatewayError }
        do {
            try processor.checkAvailable(version: version)
        } catch {
            throw error.gatewayError
        }
        return (processor, ThreeDS1Context(merchantId: merchant.id, threeDSecureId: id, version: version), merchant)
    }

    private func threeDS1(_ request: Request, _ context: GatewayRequestContext, expecting operation: String) async throws -> Response {
        let (processor, threeDS1Context, merchant) = try threeDS1Request(request, context)
        let shape = Self.threeDS1Shape(version: threeDS1Context.version)
        var reader = try RequestReader(body: try await Self.body(of: request, limit: maxBodyBytes), shape: shape)
        let sent = try reader.requiredText("apiOperation")
        guard sent == operation else {
            throw GatewayError.invalidValue("apiOperation", sent, "This method on a 3D Secure Id takes \(operation) only")
        }
        let result: ThreeDS1Authentication
        do {
            if operation == "PROCESS_ACS_RESULT" {
                result = try await processor.processACSResult(paRes: try reader.requiredText("3DSecure.paRes"), threeDS1Context)
            } else {
                // A session's content reads as if the request had sent it, and a token stands for
                // its card, as in INITIATE_AUTHENTICATION.
                if let sessionId = reader.text("session.id") {
                    let opened = try await paymentSession(sessionId, merchant: merchant, version: reader.text("session.version"))
                    reader = RequestReader(checked: SessionContent.merged(opened.content, reader.root))
                }
                if let storedCard = try await resolvingStoredCard(reader, merchant: merchant) { reader = storedCard.reader }
                result = try await processor.checkEnrollment(try .reading(reader), threeDS1Context)
            }
        } catch let rejection as ThreeDS1Rejection {
            throw rejection.gatewayError
        }
        return Self.json(.created, ThreeDS1Response.json(result, acsURL: Self.threeDS1ACSURL(request)))
    }

    /// A payment's fields at this version (order, sourceOfFunds, session, billing, ...), with the
    /// 3-D Secure 1 operations' own `3DSecure` group and `apiOperation` checked where read.
    static func threeDS1Shape(version: APIVersion) -> FieldShape {
        let secure = FieldShape.object([
            "authenticationRedirect": .object(["responseUrl": .text, "pageGenerationMode": .text]), "paRes": .text,
        ])
        guard case .object(var fields, let members) = RequestCatalogue.transactionRequest.shape(for: .pay, version: version.number) else {
            return .object(["apiOperation": .text, "3DSecure": secure])
        }
        fields["apiOperation"] = .text
        fields["3DSecure"] = secure
        fields["3DSecureId"] = .text
        return .object(fields, members: members)
    }

    static func threeDS1ACSURL(_ request: Request) -> String {
        browserOrigin(request) + ThreeDS1ACSRoutes.challengePath
    }
}

extension ThreeDS1EnrollmentRequest {
    /// Validates a CHECK_3DS_ENROLLMENT body: the order's amount and currency, the card, and
    /// where the ACS sends the payer back.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> ThreeDS1EnrollmentRequest {
        let currency = try AuthenticatePayerRequest.currency(reader)
        let amount = try Amount.reading(reader, "order.amount", currency)
        if let type = reader.text("sourceOfFunds.type"), type != "CARD" {
            throw GatewayError.unsupported("sourceOfFunds.type", type, "Only CARD is supported")
        }
        let card = "sourceOfFunds.provided.card"
        var expiry: CardExpiry?
        if let month = reader.text("\(card).expiry.month") {
            expiry = try CardExpiry.reading(month: month, year: reader.requiredText("\(card).expiry.year"), field: "\(card).expiry")
        }
        let redirect = "3DSecure.authenticationRedirect"
        let responseUrl = try reader.requiredText("\(redirect).responseUrl")
        guard ThreeDS1ACSRoutes.termURL(responseUrl) != nil else {
            throw GatewayError.invalidValue("\(redirect).responseUrl", responseUrl, "Must be an absolute http or https URL")
        }
        var mode = ThreeDS1PageGenerationMode.simple
        if let text = reader.text("\(redirect).pageGenerationMode") {
            guard let chosen = ThreeDS1PageGenerationMode(rawValue: text) else {
                throw GatewayError.invalidValue("\(redirect).pageGenerationMode", text, "Value must be SIMPLE or CUSTOMIZED")
            }
            mode = chosen
        }
        return ThreeDS1EnrollmentRequest(
            amount: amount,
            cardNumber: try PaymentRequest.cardNumber(reader),
            expiry: expiry,
            nameOnCard: reader.text("\(card).nameOnCard").map(CardNumberRedaction.mask),
            responseUrl: responseUrl,
            pageGenerationMode: mode
        )
    }
}
