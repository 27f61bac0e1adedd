import GatewayCore
/// A mint option the command line got wrong, named by its JSON field (the flag is the same name in kebab case).
public struct SandboxTokenOptionsError: Error, CustomStringConvertible {
    public let field: String?
    public let explanation: String

    package init(field: String?, explanation: String) {
        self.field = field
        self.explanation = explanation
    }

    public var description: String { field.map { "\($0): \(explanation)" } ?? explanation }
}
