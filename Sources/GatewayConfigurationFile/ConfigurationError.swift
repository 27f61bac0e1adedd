/// A configuration mistake: a key that is missing, unknown or wrong, or a file that cannot be read,
/// with where it stands (`file:line:column`) when it comes from a file. The `gateway` command exits
/// with its own code (78, EX_CONFIG) for these, apart from command-line mistakes (64).
public struct ConfigurationError: Error, CustomStringConvertible {
    /// The dotted key, or empty when the problem is the file itself.
    public let key: String
    public let problem: String
    /// `file`, or `file:line:column`, when the problem was found in a configuration file.
    public let location: String?

    package init(location: String? = nil, key: String, problem: String) {
        self.location = location
        self.key = key
        self.problem = problem
    }

    package init(location: String, problem: String) {
        self.init(location: location, key: "", problem: problem)
    }

    public var description: String {
        let what = key.isEmpty ? problem : "configuration key '\(key)' \(problem)"
        return location.map { "\($0): \(what)" } ?? what
    }
}
