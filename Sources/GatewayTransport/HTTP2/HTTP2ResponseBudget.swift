import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP/2 answers every connection of the process holds and has not yet sent: what clients
/// that give no flow-control window (or read nothing) can make the server keep. HTTP/1.1 needs
/// no such count: a connection there holds at most its channel's write buffer and the one answer
/// it is writing ([`SlowReaderGuard`]); an HTTP/2 connection answers up to 100 streams at once,
/// and NIOHTTP2 keeps each answer until the client's window lets it out.
///
/// [`HTTP2RequestStreams`] charges each stream it serves here and refuses new streams while the
/// total is over `limit` (a connection holding nothing still gets one, so a client whose answers
/// leave at once is not refused for the one that holds its answers back).
package final class HTTP2ResponseBudget: Sendable {
    /// The total past which connections that already hold answers get no new streams.
    package let limit: Int
    private let held = Atomic<Int>(0)
    /// The total went over a quarter of `limit` since memory was last handed back.
    private let swollen = Atomic<Bool>(false)

    package init(limit: Int = 32 * 1024 * 1024) {
        self.limit = limit
    }

    /// Bytes held now, for the `gateway_http2_held_response_bytes` gauge.
    package var bytes: Int { held.load(ordering: .relaxed) }

    /// Whether a connection holding `connectionBytes` may be given another stream.
    func admits(connectionBytes: Int) -> Bool {
        connectionBytes == 0 || held.load(ordering: .relaxed) < limit
    }

    func charge(_ bytes: Int) {
        if held.wrappingAdd(bytes, ordering: .relaxed).newValue > limit / 4, !swollen.load(ordering: .relaxed) {
            swollen.store(true, ordering: .relaxed)
        }
    }

    func release(_ bytes: Int) {
        let now = held.wrappingSubtract(bytes, ordering: .relaxed).newValue
        if now == 0, swollen.load(ordering: .relaxed), swollen.exchange(false, ordering: .relaxed) {
            Self.returnFreedMemory()
        }
    }

    /// glibc keeps freed pages for reuse: after an attack the process stayed at its peak (255 MB
    /// from 64 MB) until something asked for them back. Once the total has gone over a quarter of
    /// the budget and then nothing is held any more (the connections that held answers closed,
    /// their TLS state with them), the pages are handed back to the system, off the event loops.
    /// Ordinary traffic holds answers for an instant and never comes near, so never pays for it.
    private static func returnFreedMemory() {
        #if canImport(Glibc)
        guard let trim = mallocTrim else { return }
        DispatchQueue.global(qos: .utility).async { _ = trim(0) }
        #endif
    }

    #if canImport(Glibc)
    /// Looked up rather than imported: Swift's Glibc module leaves `malloc.h` out, and another
    /// C library (musl) has no such function.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
    #endif
}
