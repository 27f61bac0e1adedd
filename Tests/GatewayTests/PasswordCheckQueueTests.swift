import Dispatch
import MerchantConsole
import Testing

@Suite("Password check queue")
struct PasswordCheckQueueTests {
    @Test("checks run off the caller's thread, one at a time; past capacity a check is refused without running")
    func boundedLine() async throws {
        let queue = PasswordCheckQueue(capacity: 2)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // The first check holds the queue's thread; the second waits behind it; the third is refused.
        async let first = queue.run { () -> Int in
            started.signal()
            release.wait()
            return 1
        }
        started.wait()
        async let second = queue.run { 2 }
        try await Task.sleep(for: .milliseconds(50))
        let ran = ManagedFlag()
        let third = await queue.run { () -> Int in
            ran.set()
            return 3
        }
        #expect(third == nil)
        release.signal()
        #expect(await first == 1)
        #expect(await second == 2)
        #expect(!ran.isSet)
        // Room again once the line has gone through.
        #expect(await queue.run { 4 } == 4)
    }
}

/// Set from the queue's thread, read from the test's.
private final class ManagedFlag: @unchecked Sendable {
    private let lock = DispatchQueue(label: "flag")
    private var value = false
    func set() { lock.sync { value = true } }
    var isSet: Bool { lock.sync { value } }
}
