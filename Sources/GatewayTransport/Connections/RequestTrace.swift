/// A diagnostic hook (`log.stageTrace`): the composition follows a request from the moment it is
/// whole to the moment its answer is handed to the connection, without the transport knowing what
/// is recorded in between.
package protocol RequestTrace: AnyObject, Sendable {
    /// Runs the request's answer inside the trace (a task-local, say, for the store to mark).
    func run(_ answer: () async -> RouterCall.Answer) async -> RouterCall.Answer
    /// The answer was handed to the connection.
    func answered()
}

/// Starts a request's trace from its path; set only while tracing, so untraced requests pay nothing.
package typealias RequestTracer = @Sendable (_ path: String) -> any RequestTrace
