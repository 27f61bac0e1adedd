extension GatewayError {
    /// RFC 9112 6.1: a transfer coding list that ends in `chunked` but names another coding
    /// (`gzip, chunked`) frames its body, yet this server would pass it on still encoded: 501, as
    /// the RFC asks of a coding the server does not implement. A final coding other than `chunked`
    /// leaves no way to frame the body, and is a malformed request (400) instead.
    package static func transferCodingNotImplemented(_ codings: String) -> GatewayError {
        GatewayError(
            status: .notImplemented,
            cause: .invalidRequest,
            explanation:
                "Transfer-Encoding '\(codings.prefix(64))' is not supported: send the body with Content-Length or Transfer-Encoding: chunked"
        )
    }
}
