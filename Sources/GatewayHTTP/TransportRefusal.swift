import HTTPTypes

/// A request the transport refused before any route saw it. The transport knows no front end:
/// what the client reads is each front end's own error body (``RefusalAnswers``).
package enum TransportRefusal: Sendable, Equatable {
    /// The HTTP/1 parser refused the request (400); `why` says what was wrong, in words.
    case malformed(why: String)
    /// The request's transfer codings include one the server does not implement (501).
    case codingNotImplemented(String)

    package var status: HTTPResponse.Status {
        switch self {
        case .malformed: .badRequest
        case .codingNotImplemented: .notImplemented
        }
    }
}

/// What a client is answered for a refused request: a status, a body and its type.
package struct RefusalAnswer: Sendable {
    package var status: HTTPResponse.Status
    package var contentType: String
    package var body: [UInt8]

    package init(status: HTTPResponse.Status, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}

/// Each front end's answer to a refused request, chosen by the request's path: the path of the
/// refused request when its head was read, else of the connection's previous request (a client
/// speaks one API), nil when the parser refused a connection's first request line.
package struct RefusalAnswers: Sendable {
    package typealias Answer = @Sendable (_ refusal: TransportRefusal, _ path: String?) -> RefusalAnswer

    private let answer: Answer

    package init(_ answer: @escaping Answer) {
        self.answer = answer
    }

    package func callAsFunction(_ refusal: TransportRefusal, path: String?) -> RefusalAnswer {
        answer(refusal, path)
    }
}
