/// Waits until `condition` holds, looking every few milliseconds, for at most `limit`; whether it
/// held. For a test that waits on something it can observe, never on a fixed time. The limit only
/// bounds a failure, so it is generous: in CI's full suite on two cores, beside the container's
/// release build, a task waited over 20 s for a thread of the shared pool.
func eventually(within limit: Duration = .seconds(120), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(2))
    }
    return true
}
