import NIOCore
import NIOEmbedded
import Testing

@testable import GatewayTransport

/// The pending share of `server.maxConnections` under a client that reconnects as fast as it is
/// closed. CI once saw a well-behaved client closed 37 ms after it connected: eight attackers had
/// connected after it before its loaded event loop read its request.
@Suite("Connection admission")
struct ConnectionAdmissionTests {
    let loop = EmbeddedEventLoop()
    let admission = ConnectionAdmission(
        maxConnections: 12,
        admissionGrace: .milliseconds(200),
        notices: ConnectionNotices(logger: LogCollector().logger)
    )

    /// Connected channels, admitted in order: a closed one is no longer active.
    func connect(_ count: Int) throws -> [EmbeddedChannel] {
        try (0..<count).map { _ in
            let channel = EmbeddedChannel(loop: loop)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
            admission.admit(channel)
            return channel
        }
    }

    @Test("within its grace a connection is never the one closed, however many connect after it")
    func graceOutlastsChurn() throws {
        let first = try connect(1)[0]
        let attackers = try connect(30)
        #expect(admission.pendingCount == 31, "young connections overflow the share for a moment")
        #expect(first.isActive)
        #expect(attackers.allSatisfy { $0.isActive })

        // Their grace over, the oldest go until three quarters of the slots remain.
        loop.advanceTime(by: .milliseconds(200))
        #expect(admission.pendingCount == 9)
        #expect(!first.isActive)
        #expect(attackers.prefix(21).allSatisfy { !$0.isActive })
        #expect(attackers.suffix(9).allSatisfy { $0.isActive })
    }

    @Test("a connection that completed its request keeps its slot through the churn")
    func settledConnectionStays() throws {
        let client = try connect(1)[0]
        admission.settle(client)
        _ = try connect(30)
        loop.advanceTime(by: .milliseconds(200))
        #expect(client.isActive)
        #expect(admission.pendingCount == 9)
    }

    @Test("past their grace, the oldest pending connection makes room for each new one at once")
    func oldConnectionsMakeRoom() throws {
        let old = try connect(9)
        loop.advanceTime(by: .milliseconds(200))
        #expect(old.allSatisfy { $0.isActive })
        _ = try connect(2)
        #expect(old.prefix(2).allSatisfy { !$0.isActive })
        #expect(old.dropFirst(2).allSatisfy { $0.isActive })
    }
}
