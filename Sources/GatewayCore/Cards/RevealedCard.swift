/// Issue 32: a payment's full card number, for a response the merchant asked to see unmasked
/// (`responseControls.sensitiveData` UNMASK, certificate authentication). It lives only as long as
/// that response is built: never stored, never logged, and its description says nothing.
package struct RevealedCard: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package let number: String
    /// Whether the number is a device account number (an Apple Pay DPAN).
    package let isDevice: Bool

    package init(number: String, isDevice: Bool) {
        self.number = number
        self.isDevice = isDevice
    }

    package var description: String { "RevealedCard(redacted)" }
    package var debugDescription: String { description }
}
