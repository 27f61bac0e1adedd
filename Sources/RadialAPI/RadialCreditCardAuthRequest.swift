import GatewayCore

/// A `CreditCardAuthRequest`, validated against the schema and decoded: the card (PAN and
/// expiry) or the Apple Pay token's parts, the order id, the amount and the schema version that
/// decides which reply elements are sent.
struct RadialCreditCardAuthRequest: Sendable {
    enum Payment: Sendable {
        case card(PaymentRequest.PlainCard)
        case wallet(RadialWalletToken)
    }

    var requestId: String
    var orderId: String
    /// Absent only in a wallet request: the token's amount is authorized.
    var amount: Amount?
    var payment: Payment
    var schemaVersion: RadialSchemaVersion?

    static let root = "CreditCardAuthRequest"

    init(_ element: XMLElement) throws(RadialFault) {
        guard element.name == Self.root else {
            throw RadialFault.invalid(element.name, "is not \(Self.root): this operation takes a \(Self.root)")
        }
        let path = Self.root
        switch element.children.first?.name {
        case "WalletPaymentInformation":
            try RadialSchema.validate(element, against: RadialSchema.walletAuthorization, path: path)
            orderId = element.childText("OrderId") ?? ""
            payment = .wallet(
                try RadialWalletToken(
                    try Self.required("WalletPaymentInformation", in: element, path: path),
                    path: "\(path)/WalletPaymentInformation"
                )
            )
            amount = try element.child("Amount").map { amount throws(RadialFault) in try Self.amount(amount, path: path) }
        case "OrderId" where element.children.dropFirst().first?.name == "CardPresentEncryptedBlob":
            throw RadialFault.invalid(
                "\(path)/CardPresentEncryptedBlob",
                "card-present authorizations are not supported: send PaymentContext or WalletPaymentInformation"
            )
        case "PaymentContext":
            try RadialSchema.validate(element, against: RadialSchema.cardAuthorization, path: path)
            let context = try Self.required("PaymentContext", in: element, path: path)
            orderId = context.childText("OrderId") ?? ""
            payment = .card(try Self.card(element, context: context, path: path))
            amount = try Self.amount(try Self.required("Amount", in: element, path: path), path: path)
        default:
            // Neither sequence starts here: the wallet one's fault says what is expected first.
            try RadialSchema.validate(element, against: RadialSchema.walletAuthorization, path: path)
            throw RadialFault.invalid(path, "must start with PaymentContext or WalletPaymentInformation")
        }
        requestId = element.attribute("requestId") ?? ""
        schemaVersion = element.childText("SchemaVersion").map(RadialSchemaVersion.init)
    }

    /// A child the schema check has already required: a fault, never a crash, if the two ever disagree.
    private static func required(_ name: String, in element: XMLElement, path: String) throws(RadialFault) -> XMLElement {
        guard let child = element.child(name) else { throw RadialFault.invalid("\(path)/\(name)", "is required") }
        return child
    }

    private static func card(
        _ element: XMLElement,
        context: XMLElement,
        path: String
    ) throws(RadialFault) -> PaymentRequest.PlainCard {
        let contextPath = "\(path)/PaymentContext"
        if context.child("EncryptedPaymentAccountUniqueId") != nil {
            throw RadialFault.invalid(
                "\(contextPath)/EncryptedPaymentAccountUniqueId",
                "client-side encrypted card numbers are not supported by this gateway: send PaymentAccountUniqueId with isToken=\"false\""
            )
        }
        guard let account = context.child("PaymentAccountUniqueId") else {
            throw RadialFault.invalid("\(contextPath)/PaymentAccountUniqueId", "is required")
        }
        let accountPath = "\(contextPath)/PaymentAccountUniqueId"
        guard let isToken = account.attribute("isToken"), isToken == "false" || isToken == "0" else {
            throw RadialFault.invalid(
                "\(accountPath)/@isToken",
                "tokenized card numbers are not supported by this gateway: send the PAN with isToken=\"false\""
            )
        }
        let number = account.text
        guard (12...19).contains(number.count), RadialSchema.Text.isDigits(number) else {
            throw RadialFault.invalid(accountPath, "must be a card number of 12 to 19 digits")
        }
        if element.child("EncryptedCardSecurityCode") != nil {
            throw RadialFault.invalid(
                "\(path)/EncryptedCardSecurityCode",
                "client-side encrypted security codes are not supported by this gateway: send CardSecurityCode"
            )
        }
        // Validated as YYYY-MM by the schema.
        let expiryText = element.childText("ExpirationDate") ?? ""
        let year = Int(expiryText.prefix(4)) ?? 0
        let month = Int(expiryText.suffix(2)) ?? 0
        let securityCode = element.childText("CardSecurityCode").flatMap { $0.isEmpty ? nil : $0 }
        let name = [element.childText("BillingFirstName"), element.childText("BillingLastName")].compactMap { $0 }
        return PaymentRequest.PlainCard(
            number: number,
            expiry: CardExpiry(month: month, year: year % 100),
            securityCode: securityCode,
            nameOnCard: name.isEmpty ? nil : name.joined(separator: " ")
        )
    }

    /// Elements that carry a card security code: never part of a stored fingerprint.
    static let securityCodeElements: Set<String> = ["CardSecurityCode", "EncryptedCardSecurityCode"]

    static func amount(_ element: XMLElement, path: String) throws(RadialFault) -> Amount {
        let currencyText = element.attribute("currencyCode") ?? ""
        guard let currency = Currency(code: currencyText) else {
            throw RadialFault.invalid("\(path)/Amount/@currencyCode", "currency \(currencyText) is not supported")
        }
        do {
            return try Amount(parsing: element.text, currency: currency)
        } catch .zero {
            throw RadialFault.invalid("\(path)/Amount", "must be greater than zero")
        } catch {
            throw RadialFault.invalid("\(path)/Amount", "has more fraction digits than \(currency.code) has")
        }
    }
}

/// `SchemaVersion` ("1.2"): compared number by number, so "1.10" is after "1.2".
struct RadialSchemaVersion: Sendable, Comparable {
    var components: [Int]

    init(_ text: String) {
        components = text.split(separator: ".").map { Int($0.prefix(9)) ?? 0 }
    }

    init(_ components: Int...) {
        self.components = components
    }

    static func < (lhs: RadialSchemaVersion, rhs: RadialSchemaVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    static func == (lhs: RadialSchemaVersion, rhs: RadialSchemaVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }
}
