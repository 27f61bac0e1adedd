import GatewayCore
/// Session ids and versions as the gateway shapes them.
enum SessionIdentifiers {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    private static let randomLength = 28

    /// `SESSION` and 28 characters drawn uniformly from 36: 35 characters like the gateway's
    /// (`SESSION0002676222061H85330310J8`), with 144 bits from the system's secure generator.
    /// The id is also the Mobile SDK's credential for its session, so it must be unguessable.
    static func newSessionId() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<randomLength).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return "SESSION" + String(decoding: characters, as: UTF8.self)
    }

    /// `session.version`: ten hex characters, new with every successful update.
    static func newVersion() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = UInt64.random(in: 0..<(1 << 40), using: &generator)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 10 - hex.count) + hex
    }

    /// 31 to 35 characters: `SESSION` then upper-case letters and digits.
    static func isWellFormed(_ id: String) -> Bool {
        (31...35).contains(id.utf8.count) && id.hasPrefix("SESSION")
            && id.utf8.dropFirst(7).allSatisfy { alphabet.contains($0) }
    }
}
