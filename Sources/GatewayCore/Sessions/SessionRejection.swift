/// Why a session cannot be used as asked. The rules in ``StoredSession`` decide it; each front
/// end says it in its own words.
package enum SessionRejection: Error, Hashable, Sendable {
    /// Unknown, expired, used up or another merchant's: nothing tells these apart, so a session
    /// id reveals nothing about a session its holder may not use.
    case notFound
    /// A payment named a session nothing was successfully put into.
    case notUpdated(SessionUpdateStatus)
    /// Another payment has claimed the session, or it changed since it was read.
    case inUse
    /// The request names a `session.version` the session has moved past.
    case staleVersion(String)
    /// Two updates raced and this one lost.
    case concurrentUpdate
}
