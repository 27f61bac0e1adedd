/// Why the sandbox could not build, load or mint something.
///
/// The reason names files, fields and shapes; it never contains key material.
public struct SandboxError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in words an engineer can act on.
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "sandbox: \(reason)" }
}
