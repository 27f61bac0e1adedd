import Synchronization

/// The MPGS test simulator: outcomes chosen by the order amount (the Apple Pay table) and, for
/// plain cards, by expiry date and security code.
package struct SimulatedAcquirer: Acquirer {
    /// How an amount such as 5656 in the table matches an order amount.
    package enum AmountMatching: String, Sendable, CaseIterable {
        /// 56.56 (minor units) and 5656.00 (whole amount) both match.
        case both
        case minorUnits
        case wholeAmount
    }

    package let amountMatching: AmountMatching
    package let testCards: TestCardTable
    private let sequence = Sequence()

    package init(amountMatching: AmountMatching = .both, testCards: TestCardTable = .current) {
        self.amountMatching = amountMatching
        self.testCards = testCards
    }

    /// The seed's Apple Pay table.
    package static let amountTable: [(Int64, GatewayCode)] = [
        (5656, .approved), (5757, .declined), (5858, .timedOut), (5959, .unspecifiedFailure),
        (6161, .partiallyApproved), (6262, .systemError), (6363, .unknown),
    ]

    package func process(_ request: AcquirerRequest) async -> AcquirerOutcome {
        // A plain card's number or expiry can force an outcome; otherwise the amount decides.
        var gatewayCode = gatewayCode(forAmount: request.amount)
        if !request.isDevicePayment,
            let byCard = TestCardRules.gatewayCode(cardNumber: request.cardNumber, expiry: request.expiry, table: testCards),
            byCard != .approved
        {
            gatewayCode = byCard
        }
        var outcome = Self.describe(gatewayCode, amount: request.amount)
        if !request.isDevicePayment, let code = request.securityCode {
            outcome.securityCodeResult =
                switch code {
                case "101": .notProcessed
                case "102": .noMatch
                default: .match
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
    package func processFollowOn(type: TransactionType, amount: Amount) async -> AcquirerOutcome {
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

    package func gatewayCode(forAmount amount: Amount) -> GatewayCode {
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
        return .approved
    }

    /// Acquirer codes and messages consistent with each gateway code.
    package static func describe(_ gatewayCode: GatewayCode, amount: Amount) -> AcquirerOutcome {
        let (acquirerCode, message): (String?, String?) =
            switch gatewayCode {
            case .approved: ("00", "Approved")
            case .partiallyApproved: ("10", "Partial approval")
            case .declined: ("05", "Do not honour")
            case .expiredCard: ("54", "Expired card")
            case .unspecifiedFailure: ("06", "Error")
            case .systemError, .acquirerSystemError: ("96", "System malfunction")
            case .timedOut: ("68", "Response received too late")
            default: (nil, nil)
            }
        let authorized: Int64 =
            switch gatewayCode {
            case .approved: amount.minorUnits
            case .partiallyApproved: amount.minorUnits / 2
            default: 0
            }
        return AcquirerOutcome(
            gatewayCode: gatewayCode,
            acquirerCode: acquirerCode,
            acquirerMessage: message,
            authorizedMinorUnits: authorized
        )
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
    package func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
