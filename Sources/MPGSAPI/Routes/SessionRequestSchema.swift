import GatewayCore

/// What Create Session and Update Session bodies may carry: the groups a session may hold, in
/// one place, with the shapes the request catalogue gives them for AUTHORIZE, PAY and VERIFY (and
/// the 3-D Secure operations), so whatever a session holds reads back exactly as if the payment
/// had sent it.
extension FieldShape {
    /// The top-level groups stored in a session (everything but the operation's own fields).
    /// `authentication` holds what INITIATE_AUTHENTICATION and AUTHENTICATE_PAYER read (3-D Secure).
    static let sessionGroups: Set<String> = ["order", "sourceOfFunds", "device", "billing", "customer", "shipping", "authentication"]

    /// The session's groups at API `version`.
    static func sessionContent(version: Int) -> [String: FieldShape] {
        let shape = RequestCatalogue.transactionRequest.shape(
            operations: [.authorize, .pay, .verify, .authentication(.initiateAuthentication), .authentication(.authenticatePayer)],
            version: version,
            groups: sessionGroups
        )
        guard case .object(let groups, _) = shape else { return [:] }
        return groups
    }

    /// Fields of the operation itself, never stored: the mobile SDKs before API version 50 send
    /// `apiOperation` `UPDATE_PAYER_DATA`.
    private static let operationFields: [String: FieldShape] = ["apiOperation": .text, "correlationId": .text]

    /// `PUT .../session/{id}`; `session.version`, when given, must be the session's current one.
    static func updateSession(version: Int) -> FieldShape {
        .object(
            sessionContent(version: version).merging(operationFields) { $1 }
                .merging(["session": .object(["version": .text])]) { $1 }
        )
    }

    /// `POST .../session`: may already carry what Update Session takes.
    static func createSession(version: Int) -> FieldShape {
        .object(
            sessionContent(version: version).merging(operationFields) { $1 }
                .merging(["session": .object(["authenticationLimit": .text])]) { $1 }
        )
    }
}
