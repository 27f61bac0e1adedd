import ApplePayToken

/// An AUTHORIZE or PAY request, validated: the amount, and where the card comes from.
struct PaymentRequest: Sendable {
    enum Operation: String, Sendable {
        case authorize = "AUTHORIZE"
        case pay = "PAY"
        /// Checks the card without moving money: no amount, order VERIFIED.
        case verify = "VERIFY"

        var transactionType: String {
            switch self {
            case .authorize: "AUTHORIZATION"
            case .pay: "PAYMENT"
            case .verify: "VERIFICATION"
            }
        }
    }

    /// The three ways to pay.
    enum Source: Sendable {
        /// An Apple Pay token for the gateway to verify and decrypt, and the merchant's
        /// applicationData (raw bytes) when the request carries it.
        case applePayToken(PaymentToken, applicationData: [UInt8]?)
        /// Apple Pay payment data the merchant decrypted itself.
        case devicePayment(DeviceCard)
        /// A card number typed in by the payer.
        case card(PlainCard)
    }

    struct DeviceCard: Sendable {
        var number: String
        var expiry: CardExpiry
        var cryptogramFormat: String
        var onlinePaymentCryptogram: String?
        var eciIndicator: String?
        var nameOnCard: String?
    }

    struct PlainCard: Sendable {
        var number: String
        var expiry: CardExpiry
        var securityCode: String?
        var nameOnCard: String?
    }

    var operation: Operation
    var amount: Amount
    var walletProvider: String?
    var orderReference: String?
    var transactionReference: String?
    var transactionSource: String
    var source: Source
}

/// A card expiry as MPGS carries it: month 1-12, two-digit year.
struct CardExpiry: Sendable, Hashable {
    var month: Int
    var year: Int

    /// From the request's `expiry.month` and `expiry.year` ("05", "5", "39", "2039").
    init(month monthText: String, year yearText: String, field: String) throws(GatewayError) {
        guard let month = Int(monthText), (1...12).contains(month) else {
            throw GatewayError.invalidValue("\(field).month", monthText, "Month must be between 1 and 12")
        }
        guard let year = Int(yearText), (0...99).contains(year) || (2000...2099).contains(year) else {
            throw GatewayError.invalidValue("\(field).year", yearText, "Year must be two digits")
        }
        self.month = month
        self.year = year % 100
    }

    /// From Apple's applicationExpirationDate, YYMMDD.
    init?(applePayDate: String) {
        let digits = Array(applePayDate.utf8)
        guard digits.count == 6, digits.allSatisfy({ (48...57).contains($0) }),
            let year = Int(applePayDate.prefix(2)), let month = Int(applePayDate.dropFirst(2).prefix(2)),
            (1...12).contains(month)
        else { return nil }
        self.month = month
        self.year = year
    }

    var json: JSONValue {
        .object(["month": .string(String(month)), "year": .string(year < 10 ? "0\(year)" : String(year))])
    }
}
