import Synchronization

/// The MPGS test simulator: outcomes chosen by the order amount (the Apple Pay table) and, for
/// plain cards, by expiry date and security code.
struct SimulatedAcquirer: Acquirer {
    /// How an amount such as 5656 in the table matches an order amount.
    enum AmountMatching: String, Sendable, CaseIterable {
        /// 56.56 (minor units) and 5656.00 (whole amount) both match.
        case both
        case minorUnits
        case wholeAmount
    }

    let amountMatching: AmountMatching
    private let sequence = Sequence()

    init(amountMatching: AmountMatching = .both) {
        self.amountMatching = amountMatching
    }

    /// The seed's Apple Pay table.
    static let amountTable: [(Int64, String)] = [
        (5656, "APPROVED"), (5757, "DECLINED"), (5858, "TIMED_OUT"), (5959, "UNSPECIFIED_FAILURE"),
        (6161, "PARTIALLY_APPROVED"), (6262, "SYSTEM_ERROR"), (6363, "UNKNOWN"),
    ]

    /// The gateway's card simulator, by expiry month/year.
    static let expiryTable: [CardExpiry: String] = [
        expiry(1, 39): "APPROVED", expiry(5, 39): "DECLINED", expiry(4, 27): "EXPIRED_CARD",
        expiry(8, 28): "TIMED_OUT", expiry(1, 37): "ACQUIRER_SYSTEM_ERROR", expiry(2, 37): "UNSPECIFIED_FAILURE",
        expiry(5, 37): "UNKNOWN",
    ]

    func process(_ request: AcquirerRequest) async -> AcquirerOutcome {
        // A plain card's expiry can force an outcome; otherwise the amount decides.
        var gatewayCode = gatewayCode(forAmount: request.amount)
        if !request.isDevicePayment, let byExpiry = Self.expiryTable[request.expiry], byExpiry != "APPROVED" {
            gatewayCode = byExpiry
        }
        var outcome = Self.describe(gatewayCode, amount: request.amount)
        if !request.isDevicePayment, let code = request.securityCode {
            outcome.securityCodeResult =
                switch code {
                case "101": "NOT_PROCESSED"
                case "102": "NO_MATCH"
                default: "MATCH"
                }
        }
        if outcome.succeeded {
            let number = sequence.next()
            outcome.authorizationCode = format6(number % 1_000_000)
            outcome.stan = String(number % 1_000_000)
            outcome.receipt = "9\(String(number).leftPadded(to: 11))"
        }
        return outcome
    }

    /// Follow-on transactions obey the amount table too (a CAPTURE of 57.57 is declined); a
    /// partial approval approves the whole follow-on amount.
    func processFollowOn(type: String, amount: Amount) async -> AcquirerOutcome {
        var outcome = Self.describe(gatewayCode(forAmount: amount), amount: amount)
        if outcome.succeeded {
            let number = sequence.next()
            outcome.authorizedMinorUnits = amount.minorUnits
            outcome.authorizationCode = format6(number % 1_000_000)
            outcome.stan = String(number % 1_000_000)
            outcome.receipt = "9\(String(number).leftPadded(to: 11))"
        }
        return outcome
    }

    func gatewayCode(forAmount amount: Amount) -> String {
        for (value, code) in Self.amountTable {
            let byMinorUnits = amount.minorUnits == value
            let byWholeAmount = amount.isWhole(value)
            switch amountMatching {
            case .both where byMinorUnits || byWholeAmount: return code
            case .minorUnits where byMinorUnits: return code
            case .wholeAmount where byWholeAmount: return code
            default: continue
            }
        }
        return "APPROVED"
    }

    /// Acquirer codes and messages consistent with each gateway code.
    static func describe(_ gatewayCode: String, amount: Amount) -> AcquirerOutcome {
        let (acquirerCode, message): (String?, String?) =
            switch gatewayCode {
            case "APPROVED": ("00", "Approved")
            case "PARTIALLY_APPROVED": ("10", "Partial approval")
            case "DECLINED": ("05", "Do not honour")
            case "EXPIRED_CARD": ("54", "Expired card")
            case "UNSPECIFIED_FAILURE": ("06", "Error")
            case "SYSTEM_ERROR", "ACQUIRER_SYSTEM_ERROR": ("96", "System malfunction")
            case "TIMED_OUT": ("68", "Response received too late")
            default: (nil, nil)
            }
        let authorized: Int64 =
            switch gatewayCode {
            case "APPROVED": amount.minorUnits
            case "PARTIALLY_APPROVED": amount.minorUnits / 2
            default: 0
            }
        return AcquirerOutcome(
            gatewayCode: gatewayCode,
            acquirerCode: acquirerCode,
            acquirerMessage: message,
            authorizedMinorUnits: authorized
        )
    }

    private static func expiry(_ month: Int, _ year: Int) -> CardExpiry {
        try! CardExpiry(month: String(month), year: String(year), field: "")
    }

    /// Distinct authorization codes and receipts within a process.
    private final class Sequence: Sendable {
        private let counter = Mutex<Int>(Int.random(in: 100_000..<900_000))
        func next() -> Int {
            counter.withLock {
                $0 += 1
                return $0
            }
        }
    }
}

private func format6(_ number: Int) -> String {
    String(number).leftPadded(to: 6)
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
