import GatewayCore
import GatewayHTTP
import Hummingbird
import WireJSON

/// Payment Options Inquiry: `GET` (filters as query parameters) and `POST` (filters in an
/// optional JSON body) on `.../merchant/{id}/paymentOptionsInquiry`, answered from the merchant's
/// configuration through the core's ``PaymentOptions``.
extension GatewayRoutes {
    func registerPaymentOptions(on router: Router<GatewayRequestContext>, base: String) {
        let path = RouterPath("\(base)/merchant/:merchantId/paymentOptionsInquiry")
        // As on every route: the version and the merchant first, then what the request says.
        router.get(path) { request, context in
            let (version, merchant) = try versionAndMerchant(request, context)
            return try paymentOptions(merchant, version, filters: try Self.queryFilters(request))
        }
        router.post(path) { request, context in
            let (version, merchant) = try versionAndMerchant(request, context)
            let body = try await Self.body(of: request, limit: maxBodyBytes)
            return try paymentOptions(merchant, version, filters: body.isEmpty ? .object([:]) : try Self.bodyFilters(body))
        }
        router.refuseMethods(except: [.get, .post], on: path)
    }

    private func versionAndMerchant(
        _ request: Request,
        _ context: GatewayRequestContext
    ) throws(GatewayError) -> (APIVersion, Merchant) {
        let version = try Self.version(context)
        return (version, try authentication.authenticate(request, context, pathMerchantId: context.parameters.get("merchantId") ?? ""))
    }

    private func paymentOptions(_ merchant: Merchant, _ version: APIVersion, filters: JSONValue) throws(GatewayError) -> Response {
        let reader = RequestReader(checked: filters)
        let options = PaymentOptions(
            merchant: merchant,
            filter: try PaymentOptions.Filter.reading(reader),
            tokensEnabled: tokens.isEnabled,
            threeDSecureEnabled: authentications.isEnabled
        )
        return Self.json(
            .ok,
            PaymentOptionsResponse(
                merchantId: merchant.id,
                options: options,
                transactionSources: Self.transactionSources,
                version: version,
                correlationId: reader.text("correlationId")
            ).json
        )
    }

    /// What `transaction.source` takes in a payment: the sources a payment may come from.
    static let transactionSources: [String] = {
        let field = RequestCatalogue.transactionRequest.fields.first { $0.path == "transaction.source" }
        guard case .enumeration(let values)? = field?.format else { return ["INTERNET"] }
        return values
    }()

    /// The request fields the reference lists for the inquiry that this gateway reads; any other
    /// name is "Unexpected parameter".
    static let paymentOptionsShape: FieldShape = {
        func field(_ path: String, _ format: FieldFormat, secret: Bool = false) -> FieldShape {
            .value(CatalogueField(path: path, format: format, operations: [], versions: APIVersion.supported, isSecret: secret))
        }
        return .object([
            "correlationId": field("correlationId", .characters(.text, 1...100)),
            "order": .object([
                "amount": field("order.amount", .decimal(1...14, signed: false)),
                "currency": field("order.currency", .characters(.upper, 3...3)),
            ]),
            // The first digits of a card number: never quoted back, whatever was sent.
            "sourceOfFunds": .object([
                "provided": .object(["card": .object(["prefix": field("sourceOfFunds.provided.card.prefix", .digits(6...19), secret: true)])])
            ]),
        ])
    }()

    private static func bodyFilters(_ body: [UInt8]) throws(GatewayError) -> JSONValue {
        try RequestReader(body: body, shape: paymentOptionsShape).root
    }

    /// Query parameters named as the body's dotted fields (`order.currency=USD`), checked as the
    /// body would be.
    private static func queryFilters(_ request: Request) throws(GatewayError) -> JSONValue {
        var root = JSONValue.object([:])
        var seen: Set<String> = []
        for (name, value) in request.uri.queryParameters {
            let name = String(name)
            guard seen.insert(name).inserted else { throw GatewayError.request("The query repeats the parameter '\(name.prefix(64))'") }
            guard !name.isEmpty, !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
                throw GatewayError.unexpected(String(name.prefix(64)))
            }
            root = root.setting(name.split(separator: ".").map(String.init), to: .string(String(value)))
        }
        return try RequestReader(body: root.serialized(), shape: paymentOptionsShape).root
    }
}

extension JSONValue {
    /// This object with `value` at `path`, creating objects on the way (a non-object on the way is
    /// replaced: the shape check then names the field).
    fileprivate func setting(_ path: [String], to value: JSONValue) -> JSONValue {
        guard let first = path.first else { return value }
        var members: [String: JSONValue] = [:]
        if case .object(let existing) = self { members = existing }
        members[first] = (members[first] ?? .object([:])).setting(Array(path.dropFirst()), to: value)
        return .object(members)
    }
}

extension PaymentOptions.Filter {
    /// The filters a Payment Options Inquiry names: `order.currency` (an amount needs it, for its
    /// decimals) and a card prefix.
    static func reading(_ reader: RequestReader) throws(GatewayError) -> PaymentOptions.Filter {
        var filter = PaymentOptions.Filter(cardPrefix: reader.text("sourceOfFunds.provided.card.prefix"))
        if let code = reader.text("order.currency") {
            guard let currency = Currency(code: code) else {
                throw GatewayError.invalidValue("order.currency", code, "Currency is not supported")
            }
            filter.currency = currency
        }
        if reader.text("order.amount") != nil {
            guard let currency = filter.currency else { throw GatewayError.missing("order.currency") }
            _ = try Amount.reading(reader, "order.amount", currency)
        }
        return filter
    }
}
