import Foundation
import GatewayHTTP
import Hummingbird

extension GatewayRequestContext {
    /// The route's path parameter `name`, percent-decoded exactly once, as
    /// ``ConsoleFormat/pathSegment(_:)`` encoded it. The router hands parameters over as sent, so
    /// an order id with `:` or `(` was looked up still escaped and not found. Nil when an escape
    /// is broken or not UTF-8: such a segment names nothing.
    func pathSegment(_ name: String) -> String? {
        guard let raw = parameters.get(name) else { return nil }
        return raw.removingPercentEncoding
    }
}
