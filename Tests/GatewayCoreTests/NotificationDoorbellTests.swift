import Testing

@testable import GatewayCore

/// The delivery loop's wake-up: a commit's ring ends its wait at once, a ring with nobody
/// waiting is kept for the next wait, and the poll interval still ends a wait nobody rang.
@Suite("Notification doorbell")
struct NotificationDoorbellTests {
    @Test("a ring ends a wait at once, long before its timeout")
    func ringWakes() async {
        let doorbell = NotificationDoorbell()
        let started = ContinuousClock.now
        async let waited: Void = doorbell.wait(timeout: .seconds(30))
        try? await Task.sleep(for: .milliseconds(50))
        doorbell.ring()
        await waited
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("a ring with nobody waiting is kept: the next wait returns at once, the one after waits")
    func ringIsKept() async {
        let doorbell = NotificationDoorbell()
        doorbell.ring()
        doorbell.ring()
        let first = ContinuousClock.now
        await doorbell.wait(timeout: .seconds(30))
        #expect(ContinuousClock.now - first < .seconds(10))
        let second = ContinuousClock.now
        await doorbell.wait(timeout: .milliseconds(300))
        #expect(ContinuousClock.now - second >= .milliseconds(300), "two rings while nobody waited wake one wait")
    }

    @Test("takeRing reports a ring once, without waiting")
    func takeRing() {
        let doorbell = NotificationDoorbell()
        #expect(!doorbell.takeRing())
        doorbell.ring()
        #expect(doorbell.takeRing())
        #expect(!doorbell.takeRing())
    }

    @Test("with no ring the timeout ends the wait; cancellation ends it too")
    func timeoutAndCancellation() async {
        let doorbell = NotificationDoorbell()
        let started = ContinuousClock.now
        await doorbell.wait(timeout: .milliseconds(200))
        #expect(ContinuousClock.now - started >= .milliseconds(200))

        let waiting = Task { await doorbell.wait(timeout: .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(50))
        let cancelled = ContinuousClock.now
        waiting.cancel()
        await waiting.value
        #expect(ContinuousClock.now - cancelled < .seconds(10))
    }
}
