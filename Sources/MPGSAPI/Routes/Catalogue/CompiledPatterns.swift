import Foundation
import GatewayCore
import Synchronization

/// The catalogue's patterns, each compiled once: compiling an ICU pattern costs far more than
/// matching it (it was a tenth of a plain-card AUTHORIZE when each check compiled its own).
/// The set is small and fixed (the catalogue's formats), so the cache never needs evicting.
final class CompiledPatterns: Sendable {
    static let shared = CompiledPatterns()

    /// NSRegularExpression is immutable once made, so one instance serves every thread.
    private struct Compiled: @unchecked Sendable {
        /// The ICU-free matcher, for patterns simple enough to have one.
        let simple: SimplePattern?
        let expression: NSRegularExpression?
    }

    private let compiled = Mutex<[String: Compiled]>([:])

    /// Whether the whole of `text` matches `pattern`; false when the pattern does not compile.
    func matches(_ text: String, _ pattern: String) -> Bool {
        let entry = compiled.withLock { $0[pattern] } ?? compile(pattern)
        if let answer = entry.simple?.matches(text) { return answer }
        guard let expression = entry.expression else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    private func compile(_ pattern: String) -> Compiled {
        let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))$")
        // What ICU refuses is refused whatever the simple parser would make of it.
        let entry = Compiled(simple: expression == nil ? nil : SimplePattern(pattern), expression: expression)
        compiled.withLock { $0[pattern] = entry }
        return entry
    }
}
