/// Waits until `condition` holds, looking every few milliseconds, for at most `limit`; whether it
/// held. For a test that waits on something it can observe, never on a fixed time.
func eventually(within limit: Duration = .seconds(20), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}
