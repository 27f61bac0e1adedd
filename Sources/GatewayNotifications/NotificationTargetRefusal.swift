/// Why the gateway will not send a notification to a URL: one case per rule, each worded for the
/// configuration error and named for the failure metric.
package enum NotificationTargetRefusal: Error, Hashable {
    case notAURL
    case unsupportedScheme
    /// Production sends over TLS only: a plain `http://` URL would carry the secret in clear.
    case plainHTTP
    case unresolvable
    /// The host resolves to a loopback, private, link-local, metadata or otherwise internal
    /// address (server-side request forgery), and is not in `notifications.allowedHosts`.
    case internalAddress(IPAddress.InternalRange)

    package var problem: String {
        switch self {
        case .notAURL: "is not an absolute URL with a host"
        case .unsupportedScheme: "must be an https (or, in sandbox mode, http) URL"
        case .plainHTTP: "must be https in production"
        case .unresolvable: "names a host that does not resolve"
        case .internalAddress(let range): "resolves to an internal address: \(range.reason) (allow it in notifications.allowedHosts)"
        }
    }

    /// The URL itself is refused, whatever its host resolves to later: retrying cannot help.
    var isPermanent: Bool {
        switch self {
        case .notAURL, .unsupportedScheme, .plainHTTP: true
        case .unresolvable, .internalAddress: false
        }
    }

    /// The `cause` label of the failed-attempt metric.
    var cause: String {
        switch self {
        case .notAURL, .unsupportedScheme: "invalid_url"
        case .plainHTTP: "plain_http"
        case .unresolvable: "unresolvable"
        case .internalAddress: "internal_address"
        }
    }
}
