import GatewayCore

/// A webhook notification's body: the transaction exactly as Retrieve Transaction returns it.
package enum NotificationBody {
    package static func bytes(_ stored: StoredTransaction) -> [UInt8] {
        stored.responseBody(in: MPGSResponseEncoder())
    }
}
