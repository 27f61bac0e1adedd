import Foundation
import GatewayCore
import Hummingbird
import Logging
import WireJSON

/// INITIATE_CHECKOUT (version 63 and later) and CREATE_CHECKOUT_SESSION (before 63) on
/// `POST .../session`: a session holding the order for the hosted payment page, with the
/// interaction settings sealed beside it.
extension SessionRoutes {
    enum CheckoutOperation: String {
        case initiateCheckout = "INITIATE_CHECKOUT"
        case createCheckoutSession = "CREATE_CHECKOUT_SESSION"

        /// The versions the reference gives the operation.
        var versions: ClosedRange<Int> {
            switch self {
            case .initiateCheckout: 63...APIVersion.supported.upperBound
            case .createCheckoutSession: APIVersion.supported.lowerBound...62
            }
        }
    }

    /// How long the payer has when `interaction.timeout` is not given (seconds).
    static let defaultCheckoutTimeout = 1800

    func createCheckout(
        _ reader: RequestReader,
        _ operation: CheckoutOperation,
        merchant: Merchant,
        version: APIVersion,
        logger: Logger
    ) async throws -> Response {
        guard operation.versions.contains(version.number) else {
            let other: CheckoutOperation = operation == .initiateCheckout ? .createCheckoutSession : .initiateCheckout
            throw GatewayError.invalidValue(
                "apiOperation",
                operation.rawValue,
                "\(operation.rawValue) is version \(operation.versions.lowerBound) to \(operation.versions.upperBound); at version \(version.number) use \(other.rawValue)"
            )
        }
        let settings = try checkoutSettings(reader, version: version.number)
        let content = SessionContent.storable(reader.root)
        try SessionContent.validate(content)
        let session = try await sessions.create(
            merchantId: merchant.id,
            content: content,
            authenticationLimit: Self.authenticationLimits.default,
            checkout: settings
        )
        logger.info(
            "checkout session created",
            metadata: ["merchant": .string(merchant.id), "operation": .string(settings.operation.rawValue)]
        )
        var members: [String: JSONValue] = [
            "merchant": .string(merchant.id),
            "result": .string("SUCCESS"),
            "session": .object([
                "id": .string(session.id),
                "updateStatus": .string(session.stored.shownUpdateStatus.rawValue),
                "version": .string(session.stored.version),
            ]),
            "successIndicator": .string(settings.successIndicator),
        ]
        // Before 63 the answer has no checkoutMode: integrations that cut the body apart by
        // position (its keys are sorted) rely on `merchant` coming first.
        if version.number >= 63 { members["checkoutMode"] = .string(settings.checkoutMode) }
        return GatewayRoutes.json(.created, .object(members))
    }

    /// The interaction and the rest of the checkout's own settings, each rule naming its field.
    private func checkoutSettings(_ reader: RequestReader, version: Int) throws(GatewayError) -> CheckoutSettings {
        _ = try reader.requiredText("order.id")
        let currency = try AuthenticatePayerRequest.currency(reader)
        // Before 63 the legacy script may give the amount in Checkout.configure.
        if version >= 63 || reader.text("order.amount") != nil {
            _ = try Amount.reading(reader, "order.amount", currency)
        }
        let operation: CheckoutSettings.Operation
        if let text = reader.text("interaction.operation") {
            // The catalogue has checked the value against the enumeration.
            operation = CheckoutSettings.Operation(rawValue: text) ?? .purchase
        } else if version >= 52 {
            throw GatewayError.missing("interaction.operation")
        } else {
            operation = .purchase
        }
        if reader.text("checkoutMode") == "PAYMENT_LINK" {
            throw GatewayError.unsupported("checkoutMode", "PAYMENT_LINK", "This gateway's Hosted Checkout serves WEBSITE only")
        }
        var timeout = Self.defaultCheckoutTimeout
        if let text = reader.text("interaction.timeout") {
            guard let seconds = Int(text) else { throw GatewayError.invalidValue("interaction.timeout", text, "Must be a number of seconds") }
            let lifetime = Int(sessions.lifetime)
            guard seconds <= lifetime else {
                throw GatewayError.invalidValue(
                    "interaction.timeout",
                    text,
                    "Must be at most \(lifetime) seconds: the session lasts \(lifetime) seconds from its creation"
                )
            }
            timeout = seconds
        }
        var interaction: [String: JSONValue] = [:]
        for name in ["merchant", "displayControl", "locale", "country", "theme", "style"] {
            if let value = reader.value("interaction.\(name)") { interaction[name] = value }
        }
        if interaction["locale"] == nil, let locale = reader.value("locale") { interaction["locale"] = locale }
        var paymentFields: [String: JSONValue] = [:]
        for name in ["transaction", "agreement", "partnerSolutionId"] {
            if let value = reader.value(name) { paymentFields[name] = value }
        }
        return CheckoutSettings(
            apiVersion: version,
            operation: operation,
            returnUrl: reader.text("interaction.returnUrl"),
            cancelUrl: reader.text("interaction.cancelUrl"),
            timeoutUrl: reader.text("interaction.timeoutUrl"),
            deadline: sessions.clock().addingTimeInterval(TimeInterval(min(timeout, Int(sessions.lifetime)))),
            interaction: .object(interaction),
            paymentFields: .object(paymentFields),
            checkoutMode: reader.text("checkoutMode") ?? "WEBSITE",
            successIndicator: CheckoutSettings.newIndicator()
        )
    }
}
