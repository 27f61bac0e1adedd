import Synchronization

@testable import Gateway
@testable import GatewayNotifications

/// A resolver whose answers change between lookups, as a rebinding name's do: the n-th lookup
/// gets the n-th answer (the last one from then on). Counts the lookups.
final class ScriptedResolver: HostResolver {
    private let answers: [[IPAddress]]
    private let asked = Mutex<[String]>([])

    init(_ answers: [[IPAddress]]) {
        self.answers = answers
    }

    func addresses(of host: String) -> [IPAddress] {
        let index = asked.withLock { asked in
            asked.append(host)
            return asked.count - 1
        }
        return answers[min(index, answers.count - 1)]
    }

    /// The hosts looked up, in order.
    var lookups: [String] { asked.withLock { $0 } }
}
