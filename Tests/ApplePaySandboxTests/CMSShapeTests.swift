import ApplePaySandbox
import ApplePayToken
import Foundation
import SwiftASN1
import Testing
import X509

/// The signature's structure, read with SwiftASN1's BER parser: what real Apple tokens look like.
@Suite("The CMS signature is shaped like Apple's")
struct CMSShapeTests {
    @Test(
        "indefinite outer lengths, leaf before intermediate, one signer with three signed attributes",
        arguments: [MintRequest.Signer.ecLeaf, .rsaLeaf]
    )
    func shape(signer: MintRequest.Signer) throws {
        let authority = SandboxFixtures.authority
        var request = MintRequest()
        request.signer = signer
        request.signingTime = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let token = try PaymentToken(
            parsing: SandboxFixtures.minter.mint(request, for: MintRecipient(certificate: SandboxFixtures.ecMerchant.certificate))
        )
        #expect(Array(token.signature.prefix(2)) == [0x30, 0x80])

        let contentInfo = try children(BER.parse(token.signature))
        #expect(try ASN1ObjectIdentifier(berEncoded: contentInfo[0]) == [1, 2, 840, 113549, 1, 7, 2])
        let signedData = try children(try children(contentInfo[1])[0])
        #expect(try Int(berEncoded: signedData[0]) == 1)

        let digestAlgorithms = try children(signedData[1])
        #expect(digestAlgorithms.count == 1)
        let sha256 = try children(digestAlgorithms[0])
        #expect(try ASN1ObjectIdentifier(berEncoded: sha256[0]) == [2, 16, 840, 1, 101, 3, 4, 2, 1])
        #expect(sha256.count == 2 && sha256[1].identifier == .null)

        let encapsulated = try children(signedData[2])
        #expect(encapsulated.count == 1)  // detached: no eContent
        #expect(try ASN1ObjectIdentifier(berEncoded: encapsulated[0]) == [1, 2, 840, 113549, 1, 7, 1])

        #expect(signedData[3].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
        let certificates = try children(signedData[3]).map { try Certificate(derEncoded: Array($0.encodedBytes)) }
        let leaf = signer == .ecLeaf ? authority.ecLeaf : authority.rsaLeaf
        #expect(certificates == [leaf, authority.intermediate])

        let signerInfos = try children(signedData[4])
        #expect(signerInfos.count == 1)
        let info = try children(signerInfos[0])
        #expect(try Int(berEncoded: info[0]) == 1)
        let issuerAndSerial = try children(info[1])
        #expect(try DistinguishedName(derEncoded: issuerAndSerial[0]) == leaf.issuer)
        #expect(try ArraySlice<UInt8>(berEncoded: issuerAndSerial[1]) == leaf.serialNumber.bytes)

        let attributes = try children(info[3])
        let types = try attributes.map { try ASN1ObjectIdentifier(berEncoded: children($0)[0]) }
        #expect(
            types == [[1, 2, 840, 113549, 1, 9, 3], [1, 2, 840, 113549, 1, 9, 5], [1, 2, 840, 113549, 1, 9, 4]]
        )
        let signingTime = try children(try children(attributes[1])[1])[0]
        #expect(signingTime.identifier == .utcTime)
        #expect(Array(signingTime.encodedBytes.dropFirst(2)) == Array("260101000000Z".utf8))

        let algorithm = try children(info[4])
        let expected: ASN1ObjectIdentifier = signer == .ecLeaf ? [1, 2, 840, 10045, 4, 3, 2] : [1, 2, 840, 113549, 1, 1, 11]
        #expect(try ASN1ObjectIdentifier(berEncoded: algorithm[0]) == expected)
    }

    private func children(_ node: ASN1Node) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        return Array(nodes)
    }
}
