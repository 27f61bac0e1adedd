import Foundation
import Hummingbird
import HummingbirdTesting
import MerchantConsole
import StoreTestSupport
import Testing

@testable import Gateway
@testable import GatewayCore

/// The operator lockout against logins sent at once from many addresses, through a real socket:
/// the count is kept by the store, so concurrent wrong passwords lock at exactly the promised
/// number, and a locked operator is answered as an unknown name is.
@Suite("Merchant Administration: the lockout under concurrent logins")
struct MerchantConsoleLockoutTests {
    let console = MerchantConsoleTests()
    /// Five in a row, as the README promises.
    let limit = ConsolePolicy().operatorFailureLimit

    /// The gateway over a socket, with a password line long enough for every login sent at once
    /// (two each from an address, as in production), and operator `name` whose hash takes a few
    /// milliseconds: long enough that logins checked at once overlap.
    func withLiveConsole(
        _ store: StoreKind,
        operators names: [String],
        _ body: @escaping @Sendable (_ port: Int, _ consoleStore: any ConsoleStore) async throws -> Void
    ) async throws {
        var configured = try await console.console(store)
        configured.passwordChecks = PasswordCheckQueue(capacity: 64, perAddress: 2)
        let services = configured
        try await console.application(services).test(.live) { client in
            let consoleStore = try #require(services.consoleStore)
            let hash = try PasswordHash(password: MerchantConsoleTests.adminPassword, rounds: 50_000)
            for name in names {
                let added = try await consoleStore.insertOperator(
                    StoredOperator(merchantId: TestGateway.merchantId, name: name, role: .admin, passwordHash: hash)
                )
                #expect(added)
            }
            try await body(try #require(client.port), consoleStore)
        }
    }

    /// Logins for `name` sent at once, one from each of `count` loopback addresses starting at
    /// 127.0.0.`first`.
    static func concurrentLogins(
        port: Int,
        first: Int,
        count: Int,
        name: String,
        password: String
    ) async throws
        -> [LoopbackClient.Answer]
    {
        try await withThrowingTaskGroup(of: LoopbackClient.Answer.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await LoopbackClient(port: port, source: "127.0.0.\(first + index)")
                        .login(merchant: TestGateway.merchantId, name: name, password: password)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// The page's error message: what the operator is told.
    static func message(_ answer: LoopbackClient.Answer) -> String? {
        guard let range = answer.body.range(of: "role=\"alert\">") else { return nil }
        return String(answer.body[range.upperBound...].prefix { $0 != "<" })
    }

    @Test("12 wrong passwords at once from 12 addresses lock the operator: the right one after them is refused", arguments: StoreKind.allCases)
    func concurrentWrongPasswords(store: StoreKind) async throws {
        let limit = limit
        try await withLiveConsole(store, operators: ["carol"]) { port, consoleStore in
            let wrong = try await Self.concurrentLogins(port: port, first: 2, count: 12, name: "carol", password: "wrong password")
            #expect(wrong.map(\.status) == Array(repeating: 401, count: 12))
            let right = try await LoopbackClient(port: port, source: "127.0.0.20")
                .login(merchant: TestGateway.merchantId, name: "carol", password: MerchantConsoleTests.adminPassword)
            #expect(right.status == 401, "the right password after 12 wrong ones was answered \(right.status)")
            #expect(!right.setCookies.contains { $0.hasPrefix("ma_session=") })
            let carol = try await consoleStore.consoleOperator(merchantId: TestGateway.merchantId, name: "carol")
            #expect(carol?.lockedUntil != nil)
            // Exactly the limit's attempts had their passwords checked; the rest found the lock.
            let failures = try await consoleStore.auditEntries(merchantId: TestGateway.merchantId, limit: 100)
                .filter { $0.operatorName == "carol" && $0.action == .loginFailed }
            #expect(failures.count == 13)
            let checked = failures.filter { $0.detail == "invalidCredentials" }.count
            #expect(checked == limit, "\(checked) of 12 wrong passwords were checked")
        }
    }

    @Test("the lock takes exactly the promised count, sent at once or one by one", arguments: StoreKind.allCases)
    func exactThreshold(store: StoreKind) async throws {
        let limit = limit
        try await withLiveConsole(store, operators: ["dan", "erin", "fay", "gus"]) { port, _ in
            let right = MerchantConsoleTests.adminPassword
            // One short of the limit, at once: the right password still logs in.
            _ = try await Self.concurrentLogins(port: port, first: 2, count: limit - 1, name: "dan", password: "wrong password")
            let dan = try await LoopbackClient(port: port, source: "127.0.0.30").login(merchant: TestGateway.merchantId, name: "dan", password: right)
            #expect(dan.status == 303, "after \(limit - 1) wrong passwords at once: \(dan.status)")
            // The limit, at once: locked.
            _ = try await Self.concurrentLogins(port: port, first: 2, count: limit, name: "erin", password: "wrong password")
            let erin = try await LoopbackClient(port: port, source: "127.0.0.30").login(
                merchant: TestGateway.merchantId,
                name: "erin",
                password: right
            )
            #expect(erin.status == 401, "after \(limit) wrong passwords at once: \(erin.status)")
            // One by one, each from its own address.
            for (name, wrongCount, expected) in [("fay", limit - 1, 303), ("gus", limit, 401)] {
                for index in 0..<wrongCount {
                    let wrong = try await LoopbackClient(port: port, source: "127.0.0.\(40 + index)")
                        .login(merchant: TestGateway.merchantId, name: name, password: "wrong password")
                    #expect(wrong.status == 401)
                }
                let answer = try await LoopbackClient(port: port, source: "127.0.0.30")
                    .login(merchant: TestGateway.merchantId, name: name, password: right)
                #expect(answer.status == expected, "\(name) after \(wrongCount) wrong passwords: \(answer.status)")
            }
        }
    }

    @Test("a locked operator, an unknown name and a wrong password get the same status and message", arguments: StoreKind.allCases)
    func sameAnswer(store: StoreKind) async throws {
        let limit = limit
        try await withLiveConsole(store, operators: ["hal"]) { port, _ in
            for index in 0..<limit {
                _ = try await LoopbackClient(port: port, source: "127.0.0.\(2 + index)")
                    .login(merchant: TestGateway.merchantId, name: "hal", password: "wrong password")
            }
            let client = LoopbackClient(port: port, source: "127.0.0.30")
            let locked = try await client.login(merchant: TestGateway.merchantId, name: "hal", password: MerchantConsoleTests.adminPassword)
            let unknown = try await client.login(merchant: TestGateway.merchantId, name: "nobody", password: "any password")
            let unknownMerchant = try await client.login(merchant: "NOSUCHMERCHANT", name: "hal", password: "any password")
            let wrong = try await client.login(merchant: TestGateway.merchantId, name: "hal", password: "wrong password")
            let answers = [locked, unknown, unknownMerchant, wrong]
            #expect(Set(answers.map(\.status)) == [401], "\(answers.map(\.status))")
            #expect(Set(answers.map { Self.message($0) ?? "none" }).count == 1, "\(answers.map { Self.message($0) ?? "none" })")
        }
    }
}
