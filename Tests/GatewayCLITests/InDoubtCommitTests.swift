import BlockingWork
import Foundation
import PostgresTestServer
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(Glibc)
import Glibc
#endif

/// The failover case a merchant cannot see from outside: the store committed the transaction, but
/// its answer never reached the gateway, so the client was told SERVER_BUSY. Its retry with the
/// same order and transaction id must get the committed result, not a second decision.
@Suite("A commit the client was not told of", .blocksThreads)
struct InDoubtCommitTests {
    @Test("a write committed while its reply was lost answered SERVER_BUSY: the retry gets the stored response, once")
    func retryAfterLostReply() async throws {
        let server = try await PostgresTestServer.shared()
        let database = try await server.createNamedDatabase()
        let proxy = try await ReplyDroppingProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let cluster = try await ReplicaCluster(
            replicas: 1,
            storeURL: "postgres://\(PostgresTestServer.user)@127.0.0.1:\(proxy.port)/\(database)",
            storeTimeoutSeconds: 3
        )
        defer { cluster.stop() }
        let port = cluster.replicas[0].port
        #expect(try await ReplicaCluster.warmUp(port: port, order: "in-doubt-warm-up"), "the replica never answered 201")

        // PostgreSQL's replies are dropped on the way back, as when a primary dies after its
        // commit: the statement commits, and the gateway hears nothing until its deadline (3 s,
        // so that even a loaded machine sends the statement well before it).
        proxy.dropReplies(true)
        let body = ReplicaCluster.cardBody(amount: "7.00")
        let first = try await ReplicaCluster.send(port: port, "/order/in-doubt/transaction/1", body: body)
        proxy.dropReplies(false)
        let cause = (ReplicaCluster.json(first.body)["error"] as? [String: Any])?["cause"] as? String
        #expect(first.status == 503 && cause == "SERVER_BUSY", "\(String(decoding: first.body, as: UTF8.self))")
        #expect(first.retryAfter == "1")
        // The statement reached PostgreSQL well within the deadline and commits there, unanswered
        // (on a loaded machine perhaps a moment after the gateway gave up).
        var committed = false
        let committing = ContinuousClock.now + .seconds(20)
        while !committed, ContinuousClock.now < committing {
            let rows = try await server.psql("SELECT count(*) FROM transactions WHERE order_id = 'in-doubt'", database: database)
            committed = rows.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
            if !committed { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(committed, "the write never committed")

        // The client retries as told: the same request, the same ids. The first answer that
        // comes back is the stored one, and the order holds one transaction.
        var retry: (status: Int, body: Data, retryAfter: String?)?
        let deadline = ContinuousClock.now + .seconds(30)
        while retry == nil, ContinuousClock.now < deadline {
            let answer = try await ReplicaCluster.send(port: port, "/order/in-doubt/transaction/1", body: body)
            if answer.status == 503 { try await Task.sleep(for: .milliseconds(200)) } else { retry = answer }
        }
        let answered = try #require(retry, "the retry was never answered")
        #expect(answered.status == 201)
        let stored = try await ReplicaCluster.send(port: port, "/order/in-doubt/transaction/1")
        #expect(stored.status == 200)
        #expect(answered.body == stored.body, "the retry was decided again instead of answered from the store")
        let order = try await ReplicaCluster.send(port: port, "/order/in-doubt")
        let transactions = ReplicaCluster.json(order.body)["transaction"] as? [[String: Any]] ?? []
        #expect(transactions.count == 1, "\(String(decoding: order.body, as: UTF8.self))")
    }
}

/// A TCP proxy in front of PostgreSQL (a Python process) that can drop the server's answers to
/// executed statements while still passing on what the client sends: a reply lost after the
/// commit. Dropping is on while the switch file exists.
final class ReplyDroppingProxy {
    let process: ChildProcess
    let port: Int
    private let switchFile: URL

    init(upstreamPort: Int) async throws {
        port = try NotificationReceiver.unusedPort()
        switchFile = FileManager.default.temporaryDirectory.appending(path: "drop-replies-\(UUID().uuidString)")
        let script = """
            import os, socket, sys, threading
            listen_port, upstream_port, switch = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            def pump(source, sink, droppable):
                # Only answers to executed statements (BindComplete first) are dropped, and all
                # that follows on that connection: a connection the pool opens meanwhile still
                # completes its handshake, so the statement is sent whichever connection takes it.
                dropping = False
                try:
                    while True:
                        data = source.recv(65536)
                        if not data:
                            break
                        if droppable and os.path.exists(switch) and (dropping or data[:1] == b"2"):
                            dropping = True
                        else:
                            sink.sendall(data)
                except OSError:
                    pass
                for end in (source, sink):
                    try:
                        end.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
            server = socket.socket()
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", listen_port))
            server.listen(64)
            while True:
                client, _ = server.accept()
                upstream = socket.create_connection(("127.0.0.1", upstream_port))
                threading.Thread(target=pump, args=(client, upstream, False), daemon=True).start()
                threading.Thread(target=pump, args=(upstream, client, True), daemon=True).start()
            """
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, "\(port)", "\(upstreamPort)", switchFile.path]
        process.standardOutput = FileHandle.nullDevice
        try await NotificationReceiver.start(process, listeningOn: port)
        self.process = process
    }

    func dropReplies(_ dropping: Bool) {
        if dropping {
            _ = FileManager.default.createFile(atPath: switchFile.path, contents: Data())
        } else {
            try? FileManager.default.removeItem(at: switchFile)
        }
    }

    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: switchFile)
    }
}
