import WireJSON

/// The test cards the sandbox payment sheet offers. The sheet sends the card's `id`; the gateway
/// puts the card's number into the token it mints, so no card number crosses the merchant's page.
struct SandboxWalletCard: Sendable {
    var id: String
    /// As Apple names it in `ApplePayPaymentMethod.network`.
    var network: String
    var type: String
    var primaryAccountNumber: String

    /// What the sheet and `paymentMethod.displayName` show: the network and the last four digits.
    var displayName: String { "\(network) \(primaryAccountNumber.suffix(4))" }

    /// The first is the sheet's default.
    static let all: [SandboxWalletCard] = [
        SandboxWalletCard(id: "mastercard", network: "MasterCard", type: "credit", primaryAccountNumber: "5123450000000008"),
        SandboxWalletCard(id: "visa", network: "Visa", type: "debit", primaryAccountNumber: "4508750015741019"),
    ]

    static func card(id: String) -> SandboxWalletCard? {
        all.first { $0.id == id }
    }

    /// `ApplePayPaymentMethod`, as `onpaymentauthorized` and `onpaymentmethodselected` carry it.
    var paymentMethod: JSONValue {
        .object(["displayName": .string(displayName), "network": .string(network), "type": .string(type)])
    }

    /// The list the script shows: ids and payment methods, no card numbers.
    static var scriptList: String {
        String(
            decoding: JSONValue.array(all.map { card in .object(["id": .string(card.id), "paymentMethod": card.paymentMethod]) })
                .serialized(),
            as: UTF8.self
        )
    }
}
