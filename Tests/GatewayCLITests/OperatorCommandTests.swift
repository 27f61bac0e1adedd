import BlockingWork
import Foundation
import Testing

/// `gateway operator add|remove|passwd` as an administrator runs it: the password from standard
/// input only, stored as a hash, and each mistake refused with a message and exit 1.
@Suite("gateway operator", .blocksThreads)
struct OperatorCommandTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("operator-\(UUID().uuidString)")
    var store: URL { directory.appending(path: "gateway.sqlite") }

    func run(_ arguments: [String], stdin: String? = nil) throws -> Gateway.Result {
        try Gateway.run(
            ["operator"] + arguments,
            stdin: stdin.map { Data($0.utf8) },
            directory: ServeCommandTests.packageRoot,
            environment: [
                "GATEWAY_STORE_URL": "sqlite://\(store.path)",
                "GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": directory.appending(path: "authority").path,
            ]
        )
    }

    @Test("add, passwd and remove; the password is read from standard input and never stored as given")
    func lifecycle() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let who = ["--merchant", "TESTMERCHANT", "--name", "ada"]
        let added = try run(["add"] + who + ["--role", "admin"], stdin: "first passphrase\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("operator ada added to TESTMERCHANT as admin"))
        let again = try run(["add"] + who + ["--role", "viewer"], stdin: "second passphrase\n")
        #expect(again.status == 1)
        #expect(again.stderr.contains("already has an operator named ada"))

        let changed = try run(["passwd"] + who, stdin: "second passphrase\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        // Neither password is anywhere in the database file or its log.
        for file in [store.path, store.path + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            #expect(bytes.range(of: Data("first passphrase".utf8)) == nil)
            #expect(bytes.range(of: Data("second passphrase".utf8)) == nil)
        }

        #expect(try run(["remove"] + who).status == 0)
        let gone = try run(["remove"] + who)
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("has no operator named ada"))
        #expect(try run(["passwd"] + who, stdin: "third passphrase\n").status == 1)
    }

    @Test("a short password, an empty standard input, a password argument or an unknown merchant is refused")
    func refusals() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let who = ["--merchant", "TESTMERCHANT", "--name", "ada", "--role", "admin"]
        let short = try run(["add"] + who, stdin: "short\n")
        #expect(short.status == 1)
        #expect(short.stderr.contains("at least 8 characters"))
        let empty = try run(["add"] + who, stdin: "")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("standard input, which was empty"), "\(empty.stderr)")
        #expect(!empty.stderr.contains("USAGE: gateway <subcommand>"), "not the top-level usage")
        let argument = try run(["add"] + who + ["--password", "a long passphrase"], stdin: "a long passphrase\n")
        #expect(argument.status == 64)
        let unknown = try run(["add", "--merchant", "NOBODY", "--name", "ada", "--role", "admin"], stdin: "a long passphrase\n")
        #expect(unknown.status == 78)
        #expect(unknown.stderr.contains("NOBODY"))
        let role = try run(["add", "--merchant", "TESTMERCHANT", "--name", "ada", "--role", "root"], stdin: "a long passphrase\n")
        #expect(role.status == 64)
    }
}
