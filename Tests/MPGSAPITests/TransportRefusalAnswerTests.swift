import GatewayHTTP
import Testing
import WireJSON

@testable import MPGSAPI

/// What an MPGS client reads for a request the transport refused before any route saw it: the
/// same error body as every other error, with the status the refusal carries.
@Suite("MPGS answer to a transport refusal")
struct TransportRefusalAnswerTests {
    static func error(_ answer: RefusalAnswer) throws -> [String: JSONValue] {
        guard case .object(let root) = try JSONValue(parsing: answer.body) else { throw AnswerNotAnObject() }
        #expect(root["result"] == .string("ERROR"))
        guard case .object(let error)? = root["error"] else { throw AnswerNotAnObject() }
        return error
    }

    struct AnswerNotAnObject: Error {}

    @Test("a request the parser refused: 400 INVALID_REQUEST saying why, as JSON")
    func malformed() throws {
        let answer = GatewayError.answer(for: .malformed(why: "a header without a colon"))
        #expect(answer.status == .badRequest)
        #expect(answer.contentType == "application/json;charset=UTF-8")
        let error = try Self.error(answer)
        #expect(error["cause"] == .string("INVALID_REQUEST"))
        #expect(error["explanation"] == .string("Malformed HTTP request: a header without a colon"))
        #expect(error["field"] == nil && error["validationType"] == nil, "no field is at fault")
    }

    @Test("a transfer coding the server does not implement: 501 naming the coding, cut to 64 characters")
    func codingNotImplemented() throws {
        let answer = GatewayError.answer(for: .codingNotImplemented("gzip, chunked"))
        #expect(answer.status == .notImplemented)
        #expect(answer.contentType == "application/json;charset=UTF-8")
        let error = try Self.error(answer)
        #expect(error["cause"] == .string("INVALID_REQUEST"))
        guard case .string(let explanation)? = error["explanation"] else {
            Issue.record("no explanation: \(error)")
            return
        }
        #expect(explanation.hasPrefix("Transfer-Encoding 'gzip, chunked' is not supported"))
        let long = String(repeating: "x", count: 200)
        let cut = try Self.error(GatewayError.answer(for: .codingNotImplemented(long)))["explanation"]
        #expect(
            cut == .string("Transfer-Encoding '\(long.prefix(64))' is not supported: send the body with Content-Length or Transfer-Encoding: chunked")
        )
    }

    @Test(
        "the status is the refusal's own, whichever front end answers",
        arguments: [
            TransportRefusal.malformed(why: "x"), .codingNotImplemented("br, chunked"),
        ]
    )
    func statusIsTheRefusals(_ refusal: TransportRefusal) {
        #expect(GatewayError.answer(for: refusal).status == refusal.status)
    }

    @Test("the body is the one GatewayError writes for the same error")
    func sameBodyAsTheRoutes() {
        #expect(GatewayError.answer(for: .malformed(why: "w")).body == GatewayError.malformedHTTP("w").body.serialized())
        #expect(
            GatewayError.answer(for: .codingNotImplemented("c")).body == GatewayError.transferCodingNotImplemented("c").body.serialized()
        )
    }
}
