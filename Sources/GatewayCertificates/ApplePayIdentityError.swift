/// Why a step of the Apple Pay key set-up could not be done, in words that say what to do next.
/// Never contains key material.
public struct ApplePayIdentityError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
