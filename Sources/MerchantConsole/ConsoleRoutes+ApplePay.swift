import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// The Apple Pay certificate page: keys and CSRs made on the server, Apple's certificate checked
/// and installed, identities listed with their expiry, and retired.
extension ConsoleRoutes {
    /// Warn this long before a certificate expires.
    static let expiryWarning: TimeInterval = 30 * 86_400

    func registerApplePay(on router: Router<GatewayRequestContext>) {
        guard let identities = services.identities else { return }
        router.get("/ma/applepay") { request, context in
            await withSession(request, context, form: false) { session, _ in certificatesPage(identities, session) }
        }
        router.get("/ma/applepay/:identifier/:label") { request, context in
            await withSession(request, context, form: false) { session, _ in
                let file = context.pathSegment("label") ?? ""
                let suffix = ".certSigningRequest"
                guard file.hasSuffix(suffix) else { return refusal(.invalidField("the file"), session: session) }
                do {
                    let bytes = try identities.certificateSigningRequest(
                        merchantId: session.merchantId,
                        appleMerchantIdentifier: context.pathSegment("identifier") ?? "",
                        label: String(file.dropLast(suffix.count))
                    )
                    var response = Response(status: .ok, headers: ConsolePages.headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
                    response.headers[.contentType] = "application/pkcs10"
                    response.headers[.contentDisposition] = "attachment; filename=\"\(file)\""
                    return response
                } catch let failure as ConsoleStepFailure {
                    return certificatesPage(identities, session, error: failure.reason, status: .notFound)
                }
            }
        }
        router.post("/ma/applepay/keys") { request, context in
            await withSession(request, context, form: true) { session, form in
                try await identityAction(identities, session, context, .applePayKeyCreated) {
                    let identity = try identities.createKey(
                        merchantId: session.merchantId,
                        appleMerchantIdentifier: form["merchantIdentifier"] ?? ""
                    )
                    return (
                        "\(identity.appleMerchantIdentifier) \(identity.label)",
                        "Key \(identity.label) created: download its CSR and upload it to Apple."
                    )
                }
            }
        }
        router.post("/ma/applepay/certificates") { request, context in
            await withSession(request, context, form: true) { session, form in
                try await identityAction(identities, session, context, .applePayCertificateInstalled) {
                    let identity = try identities.install(
                        merchantId: session.merchantId,
                        appleMerchantIdentifier: form["merchantIdentifier"] ?? "",
                        certificate: form.files["certificate"] ?? []
                    )
                    let expiry = identity.notValidAfter.map(ConsoleFormat.time) ?? "?"
                    return (
                        "\(identity.appleMerchantIdentifier) \(identity.label)",
                        "Apple's certificate matches key \(identity.label) and is installed (expires \(expiry))."
                    )
                }
            }
        }
        router.post("/ma/applepay/:identifier/:label/retire") { request, context in
            await withSession(request, context, form: true) { session, _ in
                try await identityAction(identities, session, context, .applePayIdentityRetired) {
                    let identifier = context.pathSegment("identifier") ?? ""
                    let label = context.pathSegment("label") ?? ""
                    try identities.retire(merchantId: session.merchantId, appleMerchantIdentifier: identifier, label: label)
                    return ("\(identifier) \(label)", "Key \(label) of \(identifier) retired (kept in retired/).")
                }
            }
        }
    }

    /// An admin-only step: refused for a viewer, recorded in the audit log, answered on the page.
    private func identityAction(
        _ identities: any ApplePayIdentityManaging,
        _ session: ConsoleSession,
        _ context: GatewayRequestContext,
        _ action: AuditEntry.Action,
        _ body: () throws -> (detail: String, message: String)
    ) async throws -> Response {
        guard session.role.mayActOnOrders else {
            try await audit(session, context, .forbidden, action.rawValue)
            return refusal(.roleForbidden(session.role), session: session)
        }
        do {
            let (detail, message) = try body()
            try await audit(session, context, action, detail)
            return certificatesPage(identities, session, message: message)
        } catch let failure as ConsoleStepFailure {
            try await audit(session, context, action, "refused: \(failure.reason)")
            return certificatesPage(identities, session, error: failure.reason, status: .badRequest)
        }
    }

    func certificatesPage(
        _ identities: any ApplePayIdentityManaging,
        _ session: ConsoleSession,
        message: String? = nil,
        error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let now = services.clock()
        let listed = identities.identities(merchantId: session.merchantId)
        var values = frame(session, title: "Apple Pay certificates")
        values["csrf"] = session.csrfToken
        values["admin"] = session.role.mayActOnOrders
        values["identities"] = listed.map { identity -> [String: Any] in
            var row: [String: Any] = [
                "merchantIdentifier": identity.appleMerchantIdentifier, "label": identity.label,
                "identifierPath": ConsoleFormat.pathSegment(identity.appleMerchantIdentifier), "labelPath": ConsoleFormat.pathSegment(identity.label),
            ]
            if let expiry = identity.notValidAfter {
                row["expires"] = ConsoleFormat.time(expiry)
                row["warning"] = expiry.timeIntervalSince(now) < Self.expiryWarning
            }
            return row
        }
        let installed = listed.filter { $0.notValidAfter != nil }
        values["directory"] = installed.first.map { URL(fileURLWithPath: $0.keyPath).deletingLastPathComponent().path } ?? "data/applepay"
        values["configuration"] = installed.map { identity in
            "{\"name\": \"\(identity.label)\", \"privateKey\": \"\(identity.keyPath)\", \"certificate\": \"\(identity.certificatePath)\"}"
        }.joined(separator: ",\n")
        if let message { values["message"] = message }
        if let error { values["error"] = error }
        return pages.render("certificates", values, status: status)
    }
}
