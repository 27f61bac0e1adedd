import GatewayCore
import Testing

/// Issue 64: the simulated PayPal decides by `order.reference`, as the reference's test values say.
@Suite("Browser payment simulator")
struct BrowserPaymentSimulatorTests {
    @Test(
        "an approval's outcome follows order.reference",
        arguments: [
            ("TEST-SUCCEED", GatewayCode.approved), ("TEST-FAIL-DECLINE", .declined), ("TEST-FAIL-NOTFOUND", .declined),
            ("TEST-PENDING", .submitted), ("TEST-SUCCESS-INIT", .submitted), (".FAILEXPIRED_CARD", .expiredCard),
            ("order-7.FAILNO_SUCH_CODE", .unknown), ("my order 12", .approved), ("test-succeed", .approved),
        ]
    )
    func approval(reference: String, expected: GatewayCode) {
        #expect(BrowserPaymentSimulator.gatewayCode(orderReference: reference, decision: .approved) == expected)
    }

    @Test("no reference approves; a cancel is CANCELLED, a failure, whatever the reference")
    func cancel() {
        #expect(BrowserPaymentSimulator.gatewayCode(orderReference: nil, decision: .approved) == .approved)
        for reference in [nil, "TEST-SUCCEED", "TEST-PENDING"] {
            let code = BrowserPaymentSimulator.gatewayCode(orderReference: reference, decision: .cancelled)
            #expect(code == .cancelled)
            #expect(code.result == .failure)
        }
    }
}
