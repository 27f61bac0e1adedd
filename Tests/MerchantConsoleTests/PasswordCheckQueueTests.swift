import Dispatch
import MerchantConsole
import Testing

@Suite("Password check queue")
struct PasswordCheckQueueTests {
    @Test("checks run off the caller's thread, one at a time; past capacity a check is refused without running")
    func boundedLine() async throws {
        let queue = PasswordCheckQueue(capacity: 2)
        let gate = Gate()
        // The first check holds the queue's thread; the second waits behind it; the third is refused.
        async let first = queue.run(from: "a") { gate.hold(returning: 1) }
        try await gate.untilStarted()
        async let second = queue.run(from: "b") { 2 }
        // The second has its place (waiting behind the first) before the third asks.
        #expect(try await eventually { queue.placesTaken == 2 })
        let ran = Flag()
        let answered = Flag()
        let third = Task {
            defer { answered.set() }
            return await queue.run(from: "c") { () -> Int in
                ran.set()
                return 3
            }
        }
        // Refused at once; were it let in, it would wait behind the first with a place of its own
        // (seen here, so a broken rule fails the test instead of hanging it).
        #expect(try await eventually { answered.isSet || queue.placesTaken > 2 })
        #expect(queue.placesTaken == 2, "a third check took a place past capacity")
        gate.release.signal()
        #expect(await third.value == nil)
        #expect(await first == 1)
        #expect(await second == 2)
        #expect(!ran.isSet)
        // Room again once the line has gone through.
        #expect(await queue.run(from: "c") { 4 } == 4)
    }

    @Test("one address holds at most perAddress places; another address still gets in")
    func perAddress() async throws {
        let queue = PasswordCheckQueue(capacity: 8, perAddress: 1)
        let gate = Gate()
        async let first = queue.run(from: "10.0.0.1") { gate.hold(returning: 1) }
        try await gate.untilStarted()
        #expect(await queue.run(from: "10.0.0.1") { 2 } == nil)
        async let other = queue.run(from: "10.0.0.2") { 3 }
        gate.release.signal()
        #expect(await first == 1)
        #expect(await other == 3)
        #expect(await queue.run(from: "10.0.0.1") { 4 } == 4, "the address's place is given back")
    }
}

/// A check that says it started and then waits to be released, holding the queue's thread. The
/// test waits for it without blocking: a semaphore wait in each of two tests running at once took
/// both of a two-core machine's cooperative threads, and the checks they waited for never ran.
private final class Gate: Sendable {
    let release = DispatchSemaphore(value: 0)
    private let started = Flag()

    func hold(returning value: Int) -> Int {
        started.set()
        release.wait()
        return value
    }

    func untilStarted() async throws {
        #expect(try await eventually { started.isSet }, "the check never started")
    }
}

/// Set from the queue's thread, read from the test's.
private final class Flag: @unchecked Sendable {
    private let lock = DispatchQueue(label: "flag")
    private var value = false
    func set() { lock.sync { value = true } }
    var isSet: Bool { lock.sync { value } }
}
