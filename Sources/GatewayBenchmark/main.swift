import ApplePaySandbox
import ApplePayToken
import Foundation
import WireJSON

// Writes, for scripts/bench-http: root.pem (a fresh sandbox authority the benchmarked gateway is
// told to trust) and bodies.txt, one AUTHORIZE body per line, each with its own EC_v1 token for
// TESTMERCHANT's sandbox identity (the gateway accepts a token once).
//
// Usage: http-bench-tokens OUTPUT_DIR COUNT [CERTIFICATE]
// BENCH_TOKENS_SIGNED_SECONDS_AGO=N signs them N seconds in the past (stale tokens, for
// scripts/bench-refusals).

let arguments = CommandLine.arguments
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: http-bench-tokens OUTPUT_DIR COUNT [CERTIFICATE]\n".utf8))
    exit(2)
}
let output = URL(fileURLWithPath: arguments[1])
let certificatePath = arguments.count > 3 ? arguments[3] : "Config/sandbox/merchant-ec-cert.pem"
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

let authority = try SandboxAuthority.generate()
try authority.root.serializeAsPEM().pemString.write(
    to: output.appendingPathComponent("root.pem"),
    atomically: true,
    encoding: .utf8
)
let recipient = try MintRecipient(
    certificate: KeyMaterial.certificate(from: Data(contentsOf: URL(fileURLWithPath: certificatePath)))
)
let minter = TokenMinter(authority: authority)
let signedSecondsAgo = ProcessInfo.processInfo.environment["BENCH_TOKENS_SIGNED_SECONDS_AGO"].flatMap(Double.init) ?? 0

var lines = ""
lines.reserveCapacity(count * 5000)
for _ in 0..<count {
    var request = MintRequest()
    request.transactionAmount = 5656
    request.signingTime = Date().addingTimeInterval(-signedSecondsAgo)
    let token = try minter.mint(request, for: recipient)
    let body: JSONValue = .object([
        "apiOperation": .string("AUTHORIZE"),
        "order": .object(["amount": .string("56.56"), "currency": .string("USD"), "walletProvider": .string("APPLE_PAY")]),
        "sourceOfFunds": .object([
            "type": .string("CARD"),
            "provided": .object(["card": .object(["devicePayment": .object(["paymentToken": .string(token)])])]),
        ]),
        "transaction": .object(["source": .string("INTERNET")]),
    ])
    lines += String(decoding: body.serialized(), as: UTF8.self) + "\n"
}
try lines.write(to: output.appendingPathComponent("bodies.txt"), atomically: true, encoding: .utf8)
print("wrote \(count) AUTHORIZE bodies to \(output.path)")
