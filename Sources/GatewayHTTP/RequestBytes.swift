import Hummingbird
import NIOCore

/// A request body read whole, up to a limit: the one way every front end reads one.
package enum RequestBytes {
    /// The body's bytes, refused early when its declared length is over `limit`.
    package static func collect(_ request: Request, limit: Int) async throws(RequestBodyFailure) -> [UInt8] {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw .tooLarge(limit: limit)
        }
        var request = request
        do {
            return Array(buffer: try await request.collectBody(upTo: limit))
        } catch is NIOTooManyBytesError {
            throw .tooLarge(limit: limit)
        } catch {
            throw .malformed(MalformedHTTP.explanation(for: error))
        }
    }
}

/// Why a body could not be read; each API words it in its own error format.
package enum RequestBodyFailure: Error, Sendable {
    case tooLarge(limit: Int)
    /// The HTTP parser refused the body (a bad chunk, a short read): what it said.
    case malformed(String)
}
