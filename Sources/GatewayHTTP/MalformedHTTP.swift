import NIOHTTP1
import NIOHTTPTypesHTTP1

/// What was wrong with a request the HTTP parser refused, in words a client can act on.
package enum MalformedHTTP {
    package static func explanation(for error: (any Error)?) -> String {
        switch error {
        case let error as HTTPParserError:
            switch error {
            case .invalidContentLength, .unexpectedContentLength:
                "Content-Length is malformed, repeated, or sent with Transfer-Encoding"
            case .invalidChunkSize: "the chunked request body is malformed"
            case .headerOverflow: "the request head is too large"
            case .invalidMethod: "the request method is not a valid HTTP method"
            case .invalidURL: "the request target is not a valid path"
            case .invalidVersion: "only HTTP/1.0 and HTTP/1.1 are served"
            case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
                "the request head has characters HTTP does not allow"
            default: "the request is not valid HTTP/1.1"
            }
        case is HTTP1TypeConversionError: "the request method or target is not valid"
        default: "the request is not valid HTTP/1.1"
        }
    }
}
