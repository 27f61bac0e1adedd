import GatewayCore

/// The request shapes, from Radial's public SDK (`Payment-Service-CreditCardAuth-1.0.xsd`,
/// `Payment-Datatypes-1.0.xsd`, `Checkout-Datatypes-1.0.xsd`) and the Apple Pay page (seed 002)
/// for `WalletPaymentInformation`. Where this gateway is stricter than the XSD it says why.
extension RadialSchema {
    /// The card-not-present sequence, as the SDK sends it: PAN (or client-encrypted PAN) and expiry.
    static let cardAuthorization = RadialElementRule.sequence(
        "CreditCardAuthRequest",
        attributes: requestAttributes,
        [
            .sequence(
                "PaymentContext",
                [
                    .text("OrderId", Text.orderId),
                    .text("PaymentAccountUniqueId", Text.accountId, optional: true, attributes: [isToken]),
                    .text("EncryptedPaymentAccountUniqueId", Text.encrypted, optional: true),
                ]
            ),
            .text("ExpirationDate", Text.yearMonth),
            .text("CardSecurityCode", Text.securityCode, optional: true),
            .text("EncryptedCardSecurityCode", Text.encrypted, optional: true),
            .text("Amount", Text.amount, attributes: [currencyCode]),
        ]
            + customer(afterShipping: [
                .text("isRequestToCorrectCVVOrAVSError", Text.boolean),
                .sequence(
                    "SecureVerificationData",
                    optional: true,
                    [
                        .text("AuthenticationAvailable", Text.free),
                        .text("AuthenticationStatus", Text.free),
                        .text("CavvUcaf", Text.free),
                        .text("TransactionId", Text.free),
                        .text("ECI", Text.free, optional: true),
                        .text("PayerAuthenticationResponse", Text.free),
                    ]
                ),
                .text("SchemaVersion", Text.schemaVersion, optional: true),
            ])
    )

    /// The digital wallet sequence of seed 002: the token's parts, the order id, the customer.
    /// `Amount` is optional (seed 002's example has none): without it the token's own amount and
    /// currency are authorized; with it they must match.
    static let walletAuthorization = RadialElementRule.sequence(
        "CreditCardAuthRequest",
        attributes: requestAttributes,
        [
            walletPaymentInformation,
            .text("OrderId", Text.orderId),
            .text("Amount", Text.amount, optional: true, attributes: [currencyCode]),
        ] + customer(afterShipping: [.text("SchemaVersion", Text.schemaVersion, optional: true)])
    )

    /// The Decrypt request: the token's parts only.
    static let decrypt = RadialElementRule.sequence(
        "DecryptRequest",
        attributes: requestAttributes,
        [walletPaymentInformation]
    )

    static let walletPaymentInformation = RadialElementRule.sequence(
        "WalletPaymentInformation",
        [
            .text("ApplePayTransactionId", RadialTextRule(2, 128, expectation: "hexadecimal", format: Text.isHex)),
            .text("EphemeralPublicKey", Text.base64(1024)),
            .text("PublicKeyHash", Text.base64(128)),
            .text("Version", RadialTextRule(1, 16)),
            .text("Data", Text.base64(16_384)),
            .text("Signature", Text.base64(16_384)),
        ]
    )

    private static func customer(afterShipping tail: [RadialElementRule]) -> [RadialElementRule] {
        [
            .text("BillingFirstName", Text.name),
            .text("BillingLastName", Text.name),
            .text("BillingPhoneNo", Text.name),
            address("BillingAddress"),
            .text("CustomerEmail", RadialTextRule(1, 70)),
            .text("CustomerIPAddress", Text.ipv4),
            .text("ShipToFirstName", Text.name),
            .text("ShipToLastName", Text.name),
            .text("ShipToPhoneNo", Text.name, optional: true),
            address("ShippingAddress"),
        ] + tail
    }

    private static func address(_ name: String) -> RadialElementRule {
        .sequence(
            name,
            [
                .text("Line1", RadialTextRule(1, 70)),
                .text("Line2", RadialTextRule(1, 70), optional: true),
                .text("Line3", RadialTextRule(1, 70), optional: true),
                .text("Line4", RadialTextRule(1, 70), optional: true),
                .text("City", RadialTextRule(1, 40)),
                .text("MainDivision", RadialTextRule(1, 35), optional: true),
                .text("CountryCode", RadialTextRule(2, 40)),
                .text("PostalCode", RadialTextRule(1, 15), optional: true),
            ]
        )
    }

    /// `requestId` is also the transaction id the order is stored under, so it is held to the MPGS
    /// identifier rule (printable ASCII, no spaces) besides the XSD's 1 to 40 characters.
    private static let requestAttributes = [
        RadialAttributeRule(name: "requestId", required: true, rule: Text.identifier(40)),
        RadialAttributeRule(name: "sessionId", required: false, rule: RadialTextRule(1, 40)),
    ]

    private static let isToken = RadialAttributeRule(name: "isToken", required: true, rule: Text.boolean)
    private static let currencyCode = RadialAttributeRule(
        name: "currencyCode",
        required: true,
        rule: RadialTextRule(3, 3, expectation: "a three-letter ISO 4217 code", format: { $0.allSatisfy(\.isUppercase) })
    )

    enum Text {
        static let name = RadialTextRule(1, 256)
        static let free = RadialTextRule(0, 4096)
        static let accountId = RadialTextRule(1, 22)
        static let encrypted = RadialTextRule(0, 1000)
        /// OrderIdType: 1 to 20 characters; printable ASCII without spaces, as MPGS order ids
        /// are, so the order can be retrieved through the MPGS API.
        static let orderId = identifier(20)
        static let boolean = RadialTextRule(1, 5, expectation: "true, false, 1 or 0") {
            ["true", "false", "1", "0"].contains($0)
        }
        static let securityCode = RadialTextRule(0, 4, expectation: "3 or 4 digits") {
            $0.isEmpty || ((3...4).contains($0.count) && isDigits($0))
        }
        static let yearMonth = RadialTextRule(7, 7, expectation: "a year and month, YYYY-MM") { text in
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, isDigits(parts[0]), isDigits(parts[1]),
                let month = Int(parts[1])
            else { return false }
            return (1...12).contains(month)
        }
        /// AmountBaseType: a non-negative decimal with at most two fraction digits.
        static let amount = RadialTextRule(1, 16, expectation: "a decimal amount with at most two fraction digits") { text in
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), (1...12).contains(parts[0].count), isDigits(parts[0]) else { return false }
            return parts.count == 1 || ((1...2).contains(parts[1].count) && isDigits(parts[1]))
        }
        static let ipv4 = RadialTextRule(7, 15, expectation: "a dotted-quad IPv4 address") { text in
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 4
                && parts.allSatisfy { part in
                    (1...3).contains(part.count) && isDigits(part) && (part.count == 1 || part.first != "0")
                        && Int(part).map { $0 <= 255 } == true
                }
        }
        static let schemaVersion = RadialTextRule(1, 32, expectation: "a version such as 1.2") { text in
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.allSatisfy { !$0.isEmpty && isDigits($0) }
        }

        static func identifier(_ maxLength: Int) -> RadialTextRule {
            RadialTextRule(1, maxLength, expectation: "1 to \(maxLength) printable ASCII characters without spaces") {
                $0.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
            }
        }

        static func base64(_ maxLength: Int) -> RadialTextRule {
            RadialTextRule(1, maxLength, expectation: "base64 of at most \(maxLength) characters") { text in
                text.unicodeScalars.allSatisfy { scalar in
                    switch scalar {
                    case "A"..."Z", "a"..."z", "0"..."9", "+", "/", "=", " ", "\n", "\t", "\r": true
                    default: false
                    }
                }
            }
        }

        static func isDigits<S: StringProtocol>(_ text: S) -> Bool {
            !text.isEmpty && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
        }

        static func isHex(_ text: String) -> Bool {
            text.count.isMultiple(of: 2) && text.allSatisfy(\.isHexDigit)
        }
    }
}
