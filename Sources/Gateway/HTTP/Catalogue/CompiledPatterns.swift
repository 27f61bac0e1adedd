import Foundation
import Synchronization

/// The catalogue's patterns, each compiled once: compiling an ICU pattern costs far more than
/// matching it (it was a tenth of a plain-card AUTHORIZE when each check compiled its own).
/// The set is small and fixed (the catalogue's formats), so the cache never needs evicting.
final class CompiledPatterns: Sendable {
    static let shared = CompiledPatterns()

    /// NSRegularExpression is immutable once made, so one instance serves every thread.
    private struct Expression: @unchecked Sendable {
        let value: NSRegularExpression
    }

    private let expressions = Mutex<[String: Expression]>([:])

    /// The whole-text expression for `pattern`, or nil when the pattern does not compile.
    func expression(for pattern: String) -> NSRegularExpression? {
        if let cached = expressions.withLock({ $0[pattern] }) { return cached.value }
        guard let compiled = try? NSRegularExpression(pattern: "^(?:\(pattern))$") else { return nil }
        expressions.withLock { $0[pattern] = Expression(value: compiled) }
        return compiled
    }
}
