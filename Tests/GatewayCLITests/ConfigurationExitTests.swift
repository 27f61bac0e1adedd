import BlockingWork
import Foundation
import Testing

/// Configuration mistakes exit 78 with one line naming the key or position and no usage text;
/// command-line mistakes keep ArgumentParser's 64 with usage.
@Suite("gateway exit codes and version", .blocksThreads)
struct ConfigurationExitTests {
    func configFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("exit-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a configuration error exits 78, names file:line:column, and prints no usage", arguments: ["check-config", "serve"])
    func configurationError(command: String) throws {
        let path = try configFile(
            "{\n  \"server\": {\"prot\": 9000},\n  \"merchants\": [\"A\"],\n  \"merchant\": {\"A\": {\"apiPasswords\": [\"0123456789abcdef0123456789abcdef\"]}}\n}\n"
        )
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Gateway.run([command, "--config", path], directory: ServeCommandTests.packageRoot)
        #expect(run.status == 78)
        #expect(run.stderr == "error: \(path):2:14: configuration key 'server.prot' is not a configuration key; did you mean 'server.port'?\n")
        #expect(!run.stderr.contains("USAGE"))
    }

    @Test("a broken JSON file exits 78 with its line and column, not a Foundation error")
    func brokenJSON() throws {
        let path = try configFile("{\n  \"mode\": \"sandbox\",\n}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Gateway.run(["check-config", "--config", path])
        #expect(run.status == 78)
        #expect(run.stderr.contains("\(path):3:1:"))
        #expect(!run.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("the sandbox defaults outside the repository say to run from its root or pass --config")
    func defaultsOutsideRepository() throws {
        let run = try Gateway.run(["check-config"], directory: FileManager.default.temporaryDirectory)
        #expect(run.status == 78)
        #expect(run.stderr.contains("Run from the repository root or pass --config"), "\(run.stderr)")
    }

    @Test("a command-line mistake still exits 64 with usage")
    func usageError() throws {
        let run = try Gateway.run(["serve", "--port", "not-a-number"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("Usage") || run.stderr.contains("USAGE"))
    }

    @Test("--version prints the release")
    func version() throws {
        let run = try Gateway.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.range(of: #"^\d+\.\d+\.\d+(-dev)?\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
        // The CHANGELOG's newest entry is that release: in development while the binary says -dev.
        let changelog = try String(
            contentsOf: ServeCommandTests.packageRoot.appendingPathComponent("Deploy/CHANGELOG.md"),
            encoding: .utf8
        )
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.first(where: \.isNumber) != nil })
        let version = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let number = version.replacingOccurrences(of: "-dev", with: "")
        #expect(newest.hasPrefix("## \(number) "), "\(newest) vs \(version)")
        #expect(newest.contains("in development") == version.hasSuffix("-dev"), "\(newest) vs \(version)")
        #expect(!changelog.contains("(tag `v"), "the CHANGELOG names a tag this repository does not have")
    }
}
