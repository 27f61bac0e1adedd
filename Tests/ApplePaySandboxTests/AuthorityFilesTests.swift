import ApplePaySandbox
import ApplePayToken
import Foundation
import Testing
import X509

@Suite("The authority on disk")
struct AuthorityFilesTests {
    private static let certificateFiles = ["root.pem", "intermediate.pem", "leaf-ec.pem", "leaf-rsa.pem"]
    private static let keyFiles = ["root-key.pem", "intermediate-key.pem", "leaf-ec-key.pem", "leaf-rsa-key.pem"]

    @Test("written and loaded back, it verifies tokens minted before the write")
    func roundTrip() async throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        let original = try SandboxAuthority.generate()
        let recipient = try MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate)
        var request = MintRequest()
        request.signer = .rsaLeaf
        let before = try PaymentToken(parsing: TokenMinter(authority: original).mint(request, for: recipient))

        try original.write(to: directory)
        let loaded = try SandboxAuthority.load(from: directory)
        #expect(loaded.root == original.root)
        #expect(loaded.intermediate == original.intermediate)
        #expect(loaded.ecLeaf == original.ecLeaf)
        #expect(loaded.rsaLeaf == original.rsaLeaf)

        let result = try await SandboxFixtures.decryptor(trusting: loaded.trustRoots).decrypt(before, using: SandboxFixtures.keyRing())
        #expect(result.paymentData.transactionAmount == 5656)

        // The loaded keys sign too: its tokens verify against the original's roots.
        request.signer = .ecLeaf
        let after = try PaymentToken(parsing: TokenMinter(authority: loaded).mint(request, for: recipient))
        _ = try await SandboxFixtures.decryptor(trusting: original.trustRoots).verifySignature(of: after)
        request.signer = .rsaLeaf
        let afterRSA = try PaymentToken(parsing: TokenMinter(authority: loaded).mint(request, for: recipient))
        _ = try await SandboxFixtures.decryptor(trusting: original.trustRoots).verifySignature(of: afterRSA)
    }

    @Test("PEM files: certificates readable by all, PKCS#8 keys mode 0600")
    func files() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxFixtures.authority.write(to: directory)
        for name in Self.certificateFiles {
            let text = try String(contentsOf: directory.appending(path: name), encoding: .utf8)
            #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(name)")
            #expect(try permissions(directory.appending(path: name)) == 0o644, "\(name)")
        }
        for name in Self.keyFiles {
            let text = try String(contentsOf: directory.appending(path: name), encoding: .utf8)
            #expect(text.hasPrefix("-----BEGIN PRIVATE KEY-----"), "\(name) is not PKCS#8")
            #expect(try permissions(directory.appending(path: name)) == 0o600, "\(name)")
        }
        let listed = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(listed == (Self.certificateFiles + Self.keyFiles).sorted())
        #expect(try permissions(directory) == 0o700)
    }

    @Test("rewriting over existing files keeps key files private")
    func rewrite() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxFixtures.authority.write(to: directory)
        let key = directory.appending(path: "leaf-ec-key.pem")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
        try SandboxFixtures.authority.write(to: directory)
        #expect(try permissions(key) == 0o600)
        #expect(try SandboxAuthority.load(from: directory).root == SandboxFixtures.authority.root)
    }

    @Test("loadOrCreate creates the directory once, then loads the same authority")
    func loadOrCreate() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        let nested = directory.appending(path: "config/sandbox-ca")
        let created = try SandboxAuthority.loadOrCreate(at: nested)
        #expect(FileManager.default.fileExists(atPath: nested.appending(path: "root.pem").path))
        let again = try SandboxAuthority.loadOrCreate(at: nested)
        #expect(again.root == created.root)
        #expect(again.rsaLeaf == created.rsaLeaf)
    }

    @Test("replicas creating the authority at once all end up with the same one")
    func concurrentCreation() async throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        let shared = directory.appending(path: "sandbox-ca")
        let roots = try await withThrowingTaskGroup(of: Certificate.self) { group in
            for _ in 0..<4 { group.addTask { try SandboxAuthority.loadOrCreate(at: shared).root } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let onDisk = try SandboxAuthority.load(from: shared).root
        #expect(roots.count == 4)
        #expect(roots.allSatisfy { $0 == onDisk }, "a process kept an authority that lost the race")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["sandbox-ca"])
    }

    @Test("a key file from another authority is reported, not silently used")
    func mismatchedKey() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        let other = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(other) }
        try SandboxFixtures.authority.write(to: directory)
        try SandboxAuthority.generate().write(to: other)
        let name = "leaf-ec-key.pem"
        try FileManager.default.removeItem(at: directory.appending(path: name))
        try FileManager.default.copyItem(at: other.appending(path: name), to: directory.appending(path: name))
        let error = #expect(throws: SandboxError.self) {
            try SandboxAuthority.load(from: directory)
        }
        #expect(error?.reason.contains(name) == true)
    }

    @Test("a missing file is named")
    func missingFile() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxFixtures.authority.write(to: directory)
        try FileManager.default.removeItem(at: directory.appending(path: "intermediate.pem"))
        let error = #expect(throws: SandboxError.self) {
            try SandboxAuthority.load(from: directory)
        }
        #expect(error?.reason.contains("intermediate.pem") == true)
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
