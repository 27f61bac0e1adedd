import Testing

@testable import GatewayCore

/// The delivery loop's wake-up: a commit's ring ends its wait at once, a ring with nobody
/// waiting is kept for the next wait, and the poll interval still ends a wait nobody rang.
/// Asserted by what ended each wait, not by wall time: with the whole suite running, a test
/// task can wait seconds for a thread.
@Suite("Notification doorbell")
struct NotificationDoorbellTests {
    @Test("a ring ends a wait at once, long before its timeout")
    func ringWakes() async {
        let doorbell = NotificationDoorbell()
        async let rung = doorbell.wait(timeout: .seconds(60))
        try? await Task.sleep(for: .milliseconds(50))
        doorbell.ring()
        #expect(await rung, "the timeout, not the ring, ended the wait")
    }

    @Test("a ring with nobody waiting is kept: the next wait returns at once, the one after waits")
    func ringIsKept() async {
        let doorbell = NotificationDoorbell()
        doorbell.ring()
        doorbell.ring()
        #expect(await doorbell.wait(timeout: .seconds(60)))
        let second = ContinuousClock.now
        #expect(await doorbell.wait(timeout: .milliseconds(300)) == false, "two rings while nobody waited wake one wait")
        #expect(ContinuousClock.now - second >= .milliseconds(300))
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
        #expect(await doorbell.wait(timeout: .milliseconds(200)) == false)
        #expect(ContinuousClock.now - started >= .milliseconds(200))

        let waiting = Task { await doorbell.wait(timeout: .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        #expect(await waiting.value, "the timeout, not the cancellation, ended the wait")
    }
}
