import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import Testing

@testable import GatewayTransport

/// The request server's decisions without a channel: what each part, read end and answer leads to.
@Suite("HTTP/1.1 connection state")
struct HTTP1ConnectionStateTests {
    static func head(_ path: String = "/a", close: Bool = false) -> HTTPRequestPart {
        var fields = HTTPFields()
        if close { fields[.connection] = "close" }
        return .head(HTTPRequest(method: .put, scheme: nil, authority: "x", path: path, headerFields: fields))
    }

    static func body(_ text: String) -> HTTPRequestPart { .body(ByteBuffer(string: text)) }

    /// The path and whole body of a hand-on, or nil for any other action.
    static func handedOn(_ action: HTTP1ConnectionState.Action) -> (path: String?, body: String)? {
        guard case .handOn(let head, .whole(let bytes)) = action else { return nil }
        return (head.path, String(buffer: bytes))
    }

    @Test("a request read whole is handed on at its end; one read meanwhile waits for the answer, then follows")
    func wholeThenQueued() {
        var state = HTTP1ConnectionState(maxBodyBytes: 100)
        expectNone(state.received(.part(Self.head("/1"))))
        expectNone(state.received(.part(Self.body("one"))))
        let first = Self.handedOn(state.received(.part(.end(nil))))
        #expect(first?.path == "/1" && first?.body == "one")
        #expect(state.inFlight)
        // The next request arrives while the first is answered: it waits, and reads are held.
        expectNone(state.received(.part(Self.head("/2"))))
        expectNone(state.received(.part(.end(nil))))
        expectNone(state.readComplete())
        let reads = state.shouldRead()
        #expect(!reads)
        let answering = state.answering()
        #expect(answering.map { !$0.endStreamedBody && !$0.closeAfter } == true)
        let after = state.answered()
        #expect(Self.handedOn(after.next)?.path == "/2")
        #expect(!after.close)
        #expect(!after.resumeReading, "the second request is in flight and nothing more waits")
        _ = state.answering()
        let afterSecond = state.answered()
        #expect(afterSecond.resumeReading, "reads were held: they resume once nothing waits")
        let readsAgain = state.shouldRead()
        #expect(readsAgain)
    }

    @Test("a request still arriving when the read ends is streamed; its body is fed, cut at the limit, and ended")
    func streamedAndCut() {
        var state = HTTP1ConnectionState(maxBodyBytes: 5)
        _ = state.received(.part(Self.head()))
        _ = state.received(.part(Self.body("ab")))
        guard case .handOn(_, .streaming(let first)) = state.readComplete() else {
            Issue.record("not handed on as a stream")
            return
        }
        #expect(String(buffer: first) == "ab")
        guard case .feedBody(let more) = state.received(.part(Self.body("cdefgh"))) else {
            Issue.record("body not fed")
            return
        }
        #expect(String(buffer: more) == "cdef", "at most maxBodyBytes + 1 bytes reach the route")
        expectNone(state.received(.part(Self.body("ij"))))
        guard case .endBody(nil) = state.received(.part(.end(nil))) else {
            Issue.record("body not ended")
            return
        }
    }

    @Test("a body over the limit in one read is handed on cut, and the rest of the request is dropped")
    func overLimitWhole() {
        var state = HTTP1ConnectionState(maxBodyBytes: 3)
        _ = state.received(.part(Self.head()))
        let cut = state.received(.part(Self.body("abcdef")))
        #expect(Self.handedOn(cut)?.body == "abcd")
        _ = state.answering()
        _ = state.answered()
        expectNone(state.received(.part(Self.body("more"))))
        expectNone(state.received(.part(.end(nil))))
        // The next request is served as usual.
        _ = state.received(.part(Self.head("/next")))
        let next = state.received(.part(.end(nil)))
        #expect(Self.handedOn(next)?.path == "/next")
    }

    @Test("a parse error outside a body is the bare 400; inside one, the route gets the body's failure and the connection closes after")
    func parseErrors() {
        var outside = HTTP1ConnectionState(maxBodyBytes: 10)
        guard case .answerParseError = outside.received(.parseError(HTTPParserError.invalidHeaderToken)) else {
            Issue.record("no bare 400")
            return
        }
        var inside = HTTP1ConnectionState(maxBodyBytes: 10)
        _ = inside.received(.part(Self.head()))
        _ = inside.received(.part(Self.body("ab")))
        guard case .handOn(_, .failed(let read, _)) = inside.received(.parseError(HTTPParserError.invalidChunkSize)) else {
            Issue.record("the route was not given the failure")
            return
        }
        #expect(String(buffer: read) == "ab")
        let answeringInside = inside.answering()
        #expect(answeringInside?.closeAfter == true)
    }

    @Test("Connection: close, a half-closed client and a closed connection each end as they should")
    func closing() {
        var close = HTTP1ConnectionState(maxBodyBytes: 10)
        _ = close.received(.part(Self.head(close: true)))
        _ = close.received(.part(.end(nil)))
        let answeringClose = close.answering()
        #expect(answeringClose?.closeAfter == true)

        var halfClosed = HTTP1ConnectionState(maxBodyBytes: 10)
        _ = halfClosed.received(.part(Self.head()))
        _ = halfClosed.received(.part(.end(nil)))
        expectNone(halfClosed.inputEnded(), "a request in flight is answered first")
        _ = halfClosed.answering()
        let afterHalfClose = halfClosed.answered()
        #expect(afterHalfClose.close)
        var idle = HTTP1ConnectionState(maxBodyBytes: 10)
        guard case .close = idle.inputEnded() else {
            Issue.record("an idle half-closed connection stays open")
            return
        }

        var streaming = HTTP1ConnectionState(maxBodyBytes: 10)
        _ = streaming.received(.part(Self.head()))
        _ = streaming.readComplete()
        guard case .endBody(let error?) = streaming.closed() else {
            Issue.record("the streamed body did not fail")
            return
        }
        #expect(error is ChannelError)
        expectNone(streaming.closed())
    }

    @Test("answered before its body ended, a request's remaining body is dropped and the next one is served")
    func answeredEarly() {
        var state = HTTP1ConnectionState(maxBodyBytes: 100)
        _ = state.received(.part(Self.head("/early")))
        _ = state.readComplete()
        let answeringEarly = state.answering()
        #expect(answeringEarly?.endStreamedBody == true)
        let afterEarly = state.answered()
        #expect(isNone(afterEarly.next))
        expectNone(state.received(.part(Self.body("late"))))
        expectNone(state.received(.part(.end(nil))))
        _ = state.received(.part(Self.head("/after")))
        let afterRequest = state.received(.part(.end(nil)))
        #expect(Self.handedOn(afterRequest)?.path == "/after")
        let answeringAfter = state.answering()
        #expect(answeringAfter != nil)
        #expect(HTTP1ConnectionState(maxBodyBytes: 1).inFlight == false)
    }

    private func expectNone(
        _ action: HTTP1ConnectionState.Action,
        _ comment: Comment? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(isNone(action), comment, sourceLocation: sourceLocation)
    }

    private func isNone(_ action: HTTP1ConnectionState.Action) -> Bool {
        if case .none = action { return true }
        return false
    }
}
