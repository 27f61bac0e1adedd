import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// What one HTTP/1.1 connection is doing, and what [`HTTP1RequestServer`] must do next: every
/// decision of the request server, without I/O, so that it is tested part by part (as
/// postgres-nio tests its state machines). Each event returns the one thing to do; the server
/// does it (hands a request on, feeds or ends a streamed body, writes the bare 400, reads, closes).
///
/// A request whose end arrives in the same read as its head is handed on whole; one still
/// arriving when a read ends is handed on then, its body streamed, never more than
/// `maxBodyBytes + 1` bytes of it. Parts read while a request is answered wait in order.
struct HTTP1ConnectionState {
    enum Input {
        case part(HTTPRequestPart)
        case parseError(any Error)
    }

    /// The body a request is handed on with.
    enum Body {
        /// Read whole (or cut at the limit plus one byte).
        case whole(ByteBuffer)
        /// Still arriving: a stream starting with these bytes, fed by ``Action/feedBody(_:)``.
        case streaming(first: ByteBuffer)
        /// The bytes read before the parser refused the rest: the route gets them, then the error.
        case failed(read: ByteBuffer, error: any Error)
    }

    enum Action {
        case none
        case handOn(HTTPRequest, Body)
        /// More of the streamed body.
        case feedBody(ByteBuffer)
        /// The streamed body is complete (`nil`), or failed.
        case endBody((any Error)?)
        /// The parser refused a request outside a body: a bare 400, then the connection closes.
        case answerParseError
        case close
    }

    /// What to do once the answer to the request in flight is written.
    struct AfterAnswer {
        /// The request read meanwhile, to hand on (or refuse), if any.
        var next = Action.none
        var close = false
        /// Reads were held while it was answered: read again.
        var resumeReading = false
    }

    private let maxBodyBytes: Int
    /// A request read but not handed on yet: its head, and its body so far.
    private var reading: (head: HTTPRequest, body: ByteBuffer)?
    /// The request handed on is still sending its body: the bytes streamed so far.
    private var streamedBytes: Int?
    /// The rest of the current request's parts go nowhere (it was answered before its end).
    private var skippingToEnd = false
    /// A request handed on and not answered yet.
    private(set) var inFlight = false
    private(set) var closeAfterAnswer = false
    /// Parts read while a complete request is answered.
    private var queued = CircularBuffer<Input>()
    private var readHeld = false
    /// The client sent its last byte (the server allows half-closure): the connection closes once
    /// what it sent is answered.
    private var inputClosed = false

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// A request part, or the parser's refusal, in the order read.
    mutating func received(_ input: Input) -> Action {
        if let bytes = streamedBytes {
            switch input {
            case .part(.body(let buffer)):
                // Past the limit the route has what it needs to refuse the body.
                let kept = min(buffer.readableBytes, maxBodyBytes + 1 - bytes)
                streamedBytes = bytes + max(kept, 0)
                return kept > 0 ? .feedBody(buffer.getSlice(at: buffer.readerIndex, length: kept) ?? ByteBuffer()) : .none
            case .part(.end):
                streamedBytes = nil
                return .endBody(nil)
            case .part(.head):
                // The parser never sends a head before the previous request's end.
                streamedBytes = nil
                queued.append(input)
                return .endBody(nil)
            case .parseError(let error):
                streamedBytes = nil
                closeAfterAnswer = true
                return .endBody(error)
            }
        }
        if inFlight || !queued.isEmpty {
            queued.append(input)
            return .none
        }
        return process(input)
    }

    /// The read ended: a request still arriving is handed on now, its body as a stream.
    mutating func readComplete() -> Action {
        guard !inFlight, queued.isEmpty else { return .none }
        return handOnStreaming()
    }

    /// Whether to read from the socket now. Not while a complete request is answered and parts of
    /// the next are waiting; a client that waits for each answer is never held (holding its reads
    /// took the socket out of epoll and put it back: two `epoll_ctl` calls a request).
    mutating func shouldRead() -> Bool {
        if inFlight, streamedBytes == nil, !queued.isEmpty {
            readHeld = true
            return false
        }
        return true
    }

    /// The client closed its side: close now unless a request is being answered.
    mutating func inputEnded() -> Action {
        inputClosed = true
        return inFlight ? .none : .close
    }

    /// The connection closed: a body still streaming fails.
    mutating func closed() -> Action {
        guard streamedBytes != nil else { return .none }
        streamedBytes = nil
        return .endBody(ChannelError.ioOnClosedChannel)
    }

    /// The request in flight is answered (its answer about to be written). A body still streaming
    /// ends: the rest of it is read and dropped. Nil when there is no request to answer.
    mutating func answering() -> (endStreamedBody: Bool, closeAfter: Bool)? {
        guard inFlight else { return nil }
        let streaming = streamedBytes != nil
        if streaming {
            streamedBytes = nil
            skippingToEnd = true
        }
        return (streaming, closeAfterAnswer)
    }

    /// The answer is written and the connection stays open: the next request, if one was read.
    mutating func answered() -> AfterAnswer {
        inFlight = false
        var after = AfterAnswer()
        while !inFlight, let next = queued.popFirst() {
            let action = process(next)
            if case .none = action { continue }
            after.next = action
        }
        if !inFlight, reading != nil {
            // The next request's end was not in what was read: it goes on as a stream.
            after.next = handOnStreaming()
        }
        if !inFlight, inputClosed {
            after.close = true
        } else if readHeld, !inFlight || streamedBytes != nil {
            readHeld = false
            after.resumeReading = true
        }
        return after
    }

    private mutating func process(_ input: Input) -> Action {
        switch input {
        case .part(.head(let head)):
            skippingToEnd = false
            reading = (head, ByteBuffer())
            return .none
        case .part(.body(var bytes)):
            guard !skippingToEnd, var request = reading else { return .none }
            if request.body.readableBytes + bytes.readableBytes > maxBodyBytes {
                // At most what arrived (the sum passed the limit); min() says so without a crash.
                let kept = min(maxBodyBytes + 1 - request.body.readableBytes, bytes.readableBytes)
                request.body.writeImmutableBuffer(bytes.readSlice(length: kept) ?? ByteBuffer())
                reading = nil
                skippingToEnd = true
                return handOn(request.head, .whole(request.body))
            }
            reading = nil  // its only holder now: appending copies no body
            if request.body.readableBytes == 0 { request.body = bytes } else { request.body.writeBuffer(&bytes) }
            reading = request
            return .none
        case .part(.end):
            if skippingToEnd {
                skippingToEnd = false
                return .none
            }
            guard let request = reading else { return .none }
            reading = nil
            return handOn(request.head, .whole(request.body))
        case .parseError(let error):
            if let request = reading, !skippingToEnd {
                // Inside a body: the route fails reading it, and answers why.
                reading = nil
                closeAfterAnswer = true
                return handOn(request.head, .failed(read: request.body, error: error))
            }
            inFlight = true
            return .answerParseError
        }
    }

    private mutating func handOnStreaming() -> Action {
        guard let request = reading else { return .none }
        reading = nil
        streamedBytes = request.body.readableBytes
        return handOn(request.head, .streaming(first: request.body))
    }

    private mutating func handOn(_ head: HTTPRequest, _ body: Body) -> Action {
        inFlight = true
        if head.headerFields[.connection]?.lowercased() == "close" { closeAfterAnswer = true }
        return .handOn(head, body)
    }
}
