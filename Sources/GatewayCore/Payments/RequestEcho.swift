/// What a transaction's response returns of its request (billing, customer, shipping, ...), as
/// the front end wrote it. The core carries it to the response encoder and never reads it.
package struct RequestEcho: Sendable, Hashable {
    package var bytes: [UInt8]

    package init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }
}
