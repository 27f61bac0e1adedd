/// The release this binary is, as `gateway --version` prints it. Deploy/CHANGELOG.md says what each
/// release changed and how versions move (the API and the configuration keys are versioned too).
enum GatewayVersion {
    static let current = "0.5.0-dev"
}
