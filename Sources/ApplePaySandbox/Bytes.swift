/// Randomness for the few places the sandbox (and its gateway endpoint) needs it.
package enum Bytes {
    /// Cryptographically secure random bytes (SystemRandomNumberGenerator reads the OS CSPRNG).
    package static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

}
