import ApplePaySandbox
import ApplePayToken
import Foundation
import Testing

/// OpenSSL's CMS and X.509 code checks the signatures and certificates without any of our code.
@Suite("OpenSSL verifies minted signatures")
struct OpenSSLInteropTests {
    @Test(
        "openssl cms -verify accepts the signature and rejects altered content",
        arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf],
        [false, true]
    )
    func cmsVerify(signer: MintRequest.Signer, withApplicationData: Bool) throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxFixtures.authority.write(to: directory)

        var request = MintRequest()
        request.signer = signer
        request.applicationData = withApplicationData ? Array("order 42".utf8) : nil
        let token = try PaymentToken(
            parsing: SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        )
        let content = SandboxFixtures.signedContent(of: token)
        let signature = directory.appending(path: "sig.der")
        let contentFile = directory.appending(path: "content.bin")
        try Data(token.signature).write(to: signature)
        try Data(content).write(to: contentFile)

        let arguments = [
            "cms", "-verify", "-binary", "-inform", "DER", "-in", signature.path, "-content", contentFile.path,
            "-CAfile", directory.appending(path: "root.pem").path, "-purpose", "any", "-out", "/dev/null",
        ]
        let accepted = try OpenSSL.run(arguments)
        #expect(accepted.status == 0, "openssl cms -verify: \(accepted.output)")

        var altered = content
        altered[altered.count / 2] ^= 0x01
        try Data(altered).write(to: contentFile)
        let rejected = try OpenSSL.run(arguments)
        #expect(rejected.status != 0, "openssl accepted altered content")
    }

    @Test("openssl cms -verify rejects a signature when the root is not trusted")
    func untrustedRoot() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxAuthority.generate().write(to: directory)  // a different root

        let token = try PaymentToken(
            parsing: SandboxFixtures.minter.mint(MintRequest(), for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        )
        try Data(token.signature).write(to: directory.appending(path: "sig.der"))
        try Data(SandboxFixtures.signedContent(of: token)).write(to: directory.appending(path: "content.bin"))
        let outcome = try OpenSSL.run([
            "cms", "-verify", "-binary", "-inform", "DER", "-in", directory.appending(path: "sig.der").path,
            "-content", directory.appending(path: "content.bin").path,
            "-CAfile", directory.appending(path: "root.pem").path, "-purpose", "any", "-out", "/dev/null",
        ])
        #expect(outcome.status != 0)
        #expect(outcome.output.contains("unable to get local issuer certificate"), "\(outcome.output)")
    }

    @Test("openssl verify accepts the leaves and the merchant certificates under the root")
    func certificateChains() throws {
        let directory = makeTemporaryDirectoryURL()
        defer { removeTemporaryDirectory(directory) }
        try SandboxFixtures.authority.write(to: directory)
        let merchant = directory.appending(path: "merchant.pem")
        try Data((SandboxFixtures.ecMerchant.certificatePEM + SandboxFixtures.rsaMerchant.certificatePEM).utf8).write(to: merchant)

        let root = directory.appending(path: "root.pem").path
        let leaves = try OpenSSL.run([
            "verify", "-x509_strict", "-CAfile", root, "-untrusted", directory.appending(path: "intermediate.pem").path,
            directory.appending(path: "leaf-ec.pem").path, directory.appending(path: "leaf-rsa.pem").path,
        ])
        #expect(leaves.status == 0, "\(leaves.output)")
        let merchants = try OpenSSL.run(["verify", "-x509_strict", "-CAfile", root, merchant.path])
        #expect(merchants.status == 0, "\(merchants.output)")

        // The leaf does not verify without its intermediate: the chain really has three levels.
        let direct = try OpenSSL.run(["verify", "-CAfile", root, directory.appending(path: "leaf-ec.pem").path])
        #expect(direct.status != 0)
    }
}
