import Foundation
import GatewayCore
import WireJSON

/// A checkout session's own settings, sealed with its content: what INITIATE_CHECKOUT said about
/// the interaction (the payment the page makes, where the browser goes afterwards, how long the
/// payer has, what the page shows), the fields the page's payment carries besides the session's
/// groups, the indicator the merchant's server compares, and what the payer's page script said
/// about the merchant's page.
package struct CheckoutSettings: Sendable, Hashable {
    /// `interaction.operation`: what the page does with the card.
    package enum Operation: String, Sendable, Hashable {
        case purchase = "PURCHASE"
        case authorize = "AUTHORIZE"
        case verify = "VERIFY"
        /// Only collects the card: the merchant pays with the session afterwards.
        case none = "NONE"

        /// The API operation the page's payment is.
        var paymentOperation: PaymentRequest.Operation? {
            switch self {
            case .purchase: .pay
            case .authorize: .authorize
            case .verify: .verify
            case .none: nil
            }
        }
    }

    /// The API version the checkout was created with: its payment is made at that version.
    package var apiVersion: Int
    package var operation: Operation
    package var returnUrl: String?
    package var cancelUrl: String?
    package var timeoutUrl: String?
    /// When the payer's time is up (`interaction.timeout` after creation).
    package var deadline: Date
    /// `interaction.merchant`, `interaction.displayControl`, the locale: what the page shows.
    package var interaction: JSONValue
    /// Top-level fields the payment carries that a session does not hold: `transaction`,
    /// `partnerSolutionId`, `agreement`.
    package var paymentFields: JSONValue
    /// `checkoutMode` as answered (WEBSITE).
    package var checkoutMode: String
    /// What the checkout's creation answered; `resultIndicator` equals it only on success.
    package var successIndicator: String
    /// Where the merchant's page asked to be sent back (set when its script shows the page).
    package var page: PageLinks?

    /// The merchant's page as the gateway's script reported it, and how it shows the payment page.
    package struct PageLinks: Sendable, Hashable {
        package enum Mode: String, Sendable, Hashable {
            case paymentPage = "PAYMENT_PAGE"
            case embedded = "EMBEDDED"
            case lightbox = "LIGHTBOX"
        }
        package var mode: Mode
        package var completeUrl: String?
        package var cancelUrl: String?
        package var timeoutUrl: String?

        package init(mode: Mode, completeUrl: String?, cancelUrl: String?, timeoutUrl: String?) {
            self.mode = mode
            self.completeUrl = completeUrl
            self.cancelUrl = cancelUrl
            self.timeoutUrl = timeoutUrl
        }
    }

    /// Whether the payer's time is up at `now`.
    package func hasTimedOut(at now: Date) -> Bool { now >= deadline }

    /// The merchant's name as the page shows it (empty when the checkout gave none).
    package var merchantName: String { interaction["merchant"]?["name"]?.stringValue ?? "" }

    // MARK: - Sealed form

    /// As sealed in the session.
    var stored: JSONValue {
        var members: [String: JSONValue] = [
            "apiVersion": .integer(Int64(apiVersion)),
            "operation": .string(operation.rawValue),
            "deadline": .integer(deadline.milliseconds),
            "interaction": interaction,
            "paymentFields": paymentFields,
            "checkoutMode": .string(checkoutMode),
            "successIndicator": .string(successIndicator),
        ]
        if let returnUrl { members["returnUrl"] = .string(returnUrl) }
        if let cancelUrl { members["cancelUrl"] = .string(cancelUrl) }
        if let timeoutUrl { members["timeoutUrl"] = .string(timeoutUrl) }
        if let page {
            var links: [String: JSONValue] = ["mode": .string(page.mode.rawValue)]
            if let url = page.completeUrl { links["completeUrl"] = .string(url) }
            if let url = page.cancelUrl { links["cancelUrl"] = .string(url) }
            if let url = page.timeoutUrl { links["timeoutUrl"] = .string(url) }
            members["page"] = .object(links)
        }
        return .object(members)
    }

    /// Read back from the sealed session; nil when it is not a checkout's.
    init?(stored: JSONValue) {
        guard case .integer(let version) = stored["apiVersion"],
            let operation = stored["operation"]?.stringValue.flatMap(Operation.init(rawValue:)),
            case .integer(let deadline) = stored["deadline"],
            let indicator = stored["successIndicator"]?.stringValue
        else { return nil }
        self.apiVersion = Int(version)
        self.operation = operation
        self.deadline = Date(milliseconds: deadline)
        self.successIndicator = indicator
        self.returnUrl = stored["returnUrl"]?.stringValue
        self.cancelUrl = stored["cancelUrl"]?.stringValue
        self.timeoutUrl = stored["timeoutUrl"]?.stringValue
        self.interaction = stored["interaction"] ?? .object([:])
        self.paymentFields = stored["paymentFields"] ?? .object([:])
        self.checkoutMode = stored["checkoutMode"]?.stringValue ?? "WEBSITE"
        if case .object = stored["page"], let mode = stored["page"]?["mode"]?.stringValue.flatMap(PageLinks.Mode.init(rawValue:)) {
            page = PageLinks(
                mode: mode,
                completeUrl: stored["page"]?["completeUrl"]?.stringValue,
                cancelUrl: stored["page"]?["cancelUrl"]?.stringValue,
                timeoutUrl: stored["page"]?["timeoutUrl"]?.stringValue
            )
        }
    }

    init(
        apiVersion: Int,
        operation: Operation,
        returnUrl: String?,
        cancelUrl: String?,
        timeoutUrl: String?,
        deadline: Date,
        interaction: JSONValue,
        paymentFields: JSONValue,
        checkoutMode: String,
        successIndicator: String
    ) {
        self.apiVersion = apiVersion
        self.operation = operation
        self.returnUrl = returnUrl
        self.cancelUrl = cancelUrl
        self.timeoutUrl = timeoutUrl
        self.deadline = deadline
        self.interaction = interaction
        self.paymentFields = paymentFields
        self.checkoutMode = checkoutMode
        self.successIndicator = successIndicator
    }

    /// 16 lower-case hex characters from the system's secure generator: the gateway's shape.
    static func newIndicator() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }
}
