/// The simulated 3-D Secure server's test cards, modelled on the gateway's EMV 3-D Secure test
/// page (one card per scenario; Deploy/docs/testing.md lists them). Any other card number is authenticated
/// frictionlessly, as the amount simulator approves amounts it does not list.
package enum ThreeDSScenario: String, Sendable, Hashable, CaseIterable {
    case frictionlessSuccess = "FRICTIONLESS_SUCCESS"
    case challenge = "CHALLENGE"
    case frictionlessFailure = "FRICTIONLESS_FAILURE"
    case notEnrolled = "NOT_ENROLLED"
    case error = "ERROR"

    /// The documented card of each scenario.
    package static let testCards: [(number: String, scenario: ThreeDSScenario)] = [
        ("5123450000000008", .frictionlessSuccess),
        ("4440000009900010", .frictionlessSuccess),
        ("5123456789012346", .challenge),
        ("4440000042200014", .challenge),
        ("5111111111111118", .frictionlessFailure),
        ("5555555555554444", .notEnrolled),
        ("5105105105105100", .error),
    ]

    package init(cardNumber: String) {
        self = Self.testCards.first { $0.number == cardNumber }?.scenario ?? .frictionlessSuccess
    }

    /// Whether INITIATE_AUTHENTICATION finds 3-D Secure 2 for the card.
    package var isEnrolled: Bool { self != .notEnrolled }
}
