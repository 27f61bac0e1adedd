/// At most `limit` tests at once: tests that start servers and measure how fast they answer
/// share two CPUs with each other, and a dozen of them at once would measure only the crowd.
actor TestPermits {
    private let limit: Int
    private var held = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { self.limit = limit }

    func acquire() async {
        if held < limit {
            held += 1
            return
        }
        // The permit passes straight from the releasing test to this one: `held` stays.
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
