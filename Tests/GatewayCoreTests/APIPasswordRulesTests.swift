import Crypto
import Foundation
import Testing

@testable import GatewayCore

/// The API password rotation Merchant Administration offers: at most two active, never none, a
/// retired password refused even while the configuration still names it.
@Suite("API password rotation")
struct APIPasswordRulesTests {
    static let first = "00112233445566778899aabbccddeeff"
    static let second = "ffeeddccbbaa99887766554433221100"

    func accepts(_ passwords: MerchantPasswords, _ password: String) -> Bool {
        passwords.accepts(digest: SHA256.hash(data: Data(password.utf8)))
    }

    func change(_ password: String, _ kind: APIPasswordChange.Kind, merchant: String = "M") -> APIPasswordChange {
        APIPasswordChange(merchantId: merchant, digest: MerchantPasswords.digest(of: password), kind: kind, operatorName: "ada", time: Date())
    }

    @Test("add a second, then retire the first: each step changes which passwords are accepted")
    func rotation() throws {
        let passwords = MerchantPasswords(configured: [Self.first])
        #expect(accepts(passwords, Self.first) && !accepts(passwords, Self.second))
        #expect(throws: MerchantPasswords.RotationRejection.lastActive) {
            try passwords.checkRetire(fingerprint: String(MerchantPasswords.digest(of: Self.first).prefix(8)))
        }
        try passwords.checkAdd()
        passwords.apply([change(Self.second, .added)])
        #expect(accepts(passwords, Self.first) && accepts(passwords, Self.second))
        #expect(throws: MerchantPasswords.RotationRejection.twoActive) { try passwords.checkAdd() }
        let digest = try passwords.checkRetire(fingerprint: String(MerchantPasswords.digest(of: Self.first).prefix(8)))
        #expect(digest == MerchantPasswords.digest(of: Self.first))
        passwords.apply([change(Self.second, .added), change(Self.first, .retired)])
        #expect(!accepts(passwords, Self.first) && accepts(passwords, Self.second))
        #expect(passwords.active.map(\.added?.operatorName) == ["ada"])
        #expect(throws: MerchantPasswords.RotationRejection.notActive("00000000")) { try passwords.checkRetire(fingerprint: "00000000") }
    }

    @Test("a configured password that was also added is listed once; a near miss is refused")
    func overlaps() {
        let passwords = MerchantPasswords(configured: [Self.first, Self.second])
        passwords.apply([change(Self.second, .added)])
        #expect(passwords.active.count == 2)
        #expect(!accepts(passwords, String(Self.first.dropLast()) + "0"))
        #expect(!accepts(passwords, ""))
    }

    @Test("generated passwords have the configuration's form and differ")
    func generated() {
        let made = (0..<20).map { _ in MerchantPasswords.generate() }
        #expect(made.allSatisfy { $0.count == 32 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(Set(made).count == 20)
    }
}
