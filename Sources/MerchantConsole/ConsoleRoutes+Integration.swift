import Foundation
import GatewayCore
import GatewayHTTP
import Hummingbird

/// Integration settings: the merchant's API passwords (generate a second, retire the first), its
/// notification URL and secret, and the notification delivery log with redeliver.
extension ConsoleRoutes {
    /// The delivery log shows this many of the merchant's latest notifications.
    static let deliveryLogLength = 50

    func registerIntegration(on router: Router<GatewayRequestContext>) {
        router.get("/ma/integration") { request, context in
            await withSession(request, context, form: false) { session, _ in try await integrationPage(session) }
        }
        router.post("/ma/integration/passwords") { request, context in
            await withSession(request, context, form: true) { session, _ in
                try await integrationAction(session, context, .apiPasswordAdded) { merchant in
                    try merchant.passwords.checkAdd()
                    let password = MerchantPasswords.generate()
                    let change = APIPasswordChange(
                        merchantId: merchant.id,
                        digest: MerchantPasswords.digest(of: password),
                        kind: .added,
                        operatorName: session.operatorName,
                        time: services.clock()
                    )
                    _ = try await services.store.recordAPIPasswordChange(change)
                    try await refreshPasswords(of: merchant)
                    return (
                        String(change.digest.prefix(8)),
                        "A second API password is active. Copy it now: it is not shown again.",
                        password
                    )
                }
            }
        }
        router.post("/ma/integration/passwords/:fingerprint/retire") { request, context in
            await withSession(request, context, form: true) { session, _ in
                try await integrationAction(session, context, .apiPasswordRetired) { merchant in
                    let fingerprint = context.pathSegment("fingerprint") ?? ""
                    let digest = try merchant.passwords.checkRetire(fingerprint: fingerprint)
                    _ = try await services.store.recordAPIPasswordChange(
                        APIPasswordChange(
                            merchantId: merchant.id,
                            digest: digest,
                            kind: .retired,
                            operatorName: session.operatorName,
                            time: services.clock()
                        )
                    )
                    try await refreshPasswords(of: merchant)
                    return (fingerprint, "The API password \(fingerprint) is retired: calls with it are refused.", nil)
                }
            }
        }
        router.post("/ma/integration/notifications/:id/redeliver") { request, context in
            await withSession(request, context, form: true) { session, _ in
                try await integrationAction(session, context, .notificationRedelivered) { merchant in
                    let text = context.pathSegment("id") ?? ""
                    // Another merchant's notification is "not found", like its orders.
                    guard let outbox = services.outbox, let id = Int64(text),
                        let notification = try await outbox.notification(id: id), notification.merchantId == merchant.id,
                        try await outbox.redeliverNotification(id: id, at: services.clock())
                    else { throw IntegrationStepFailure(reason: "There is no notification \(text) for this merchant.") }
                    return (text, "Notification \(id) is queued again, under the same X-Notification-Id.", nil)
                }
            }
        }
    }

    /// Reads the store's log again, so this replica applies the change at once (the others at
    /// their next refresh).
    private func refreshPasswords(of merchant: Merchant) async throws {
        let changes = try await services.store.apiPasswordChanges()
        merchant.passwords.apply(changes.filter { $0.merchantId == merchant.id })
    }

    /// An admin-only step: refused for a viewer, recorded in the audit log, answered on the page.
    private func integrationAction(
        _ session: ConsoleSession,
        _ context: GatewayRequestContext,
        _ action: AuditEntry.Action,
        _ body: (Merchant) async throws -> (detail: String, message: String, password: String?)
    ) async throws -> Response {
        guard session.role.mayActOnOrders else {
            try await audit(session, context, .forbidden, action.rawValue)
            return refusal(.roleForbidden(session.role), session: session)
        }
        guard let merchant = services.merchants[session.merchantId] else {
            return refusal(.sessionExpired, session: nil)
        }
        do {
            let (detail, message, password) = try await body(merchant)
            try await audit(session, context, action, detail)
            return try await integrationPage(session, message: message, newPassword: password)
        } catch let rejection as MerchantPasswords.RotationRejection {
            try await audit(session, context, action, "refused: \(rejection.wording)")
            return try await integrationPage(session, error: rejection.wording, status: .conflict)
        } catch let failure as IntegrationStepFailure {
            try await audit(session, context, action, "refused: \(failure.reason)")
            return try await integrationPage(session, error: failure.reason, status: .notFound)
        }
    }

    func integrationPage(
        _ session: ConsoleSession,
        message: String? = nil,
        error: String? = nil,
        newPassword: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        guard let merchant = services.merchants[session.merchantId] else { return refusal(.sessionExpired, session: nil) }
        let admin = session.role.mayActOnOrders
        let active = merchant.passwords.active
        var values = frame(session, title: "Integration settings")
        values["csrf"] = session.csrfToken
        values["admin"] = admin
        values["mayAdd"] = admin && active.count < MerchantPasswords.limit
        values["passwords"] = active.map { entry -> [String: Any] in
            [
                "fingerprint": entry.fingerprint,
                "origin": entry.added.map { "generated by \($0.operatorName) at \(ConsoleFormat.time($0.time))" }
                    ?? "from the configuration",
                "mayRetire": admin && active.count > 1,
            ]
        }
        if let newPassword { values["newPassword"] = newPassword }
        if let notifications = merchant.notifications {
            values["notificationUrl"] = notifications.url ?? "none (only orders that send order.notificationUrl)"
            // Admins configure the receiver with it; a viewer sees its last four characters.
            values["notificationSecret"] = admin ? notifications.secret : "…" + notifications.secret.suffix(4)
        }
        if let outbox = services.outbox {
            let log = try await outbox.notifications(merchantId: merchant.id, status: nil, limit: Self.deliveryLogLength)
            values["outbox"] = true
            values["notifications"] = log.map { notification -> [String: Any] in
                [
                    "id": "\(notification.id)",
                    "order": notification.orderId,
                    "orderPath": ConsoleFormat.pathSegment(notification.orderId),
                    "transaction": notification.transactionId,
                    "status": notification.status.rawValue,
                    "attempts": "\(notification.attempts)",
                    "created": ConsoleFormat.time(notification.createdAt),
                    "lastError": notification.lastError ?? "",
                    "url": notification.url,
                ]
            }
        }
        if let message { values["message"] = message }
        if let error { values["error"] = error }
        return pages.render("integration", values, status: status)
    }
}

/// A step refused with a reason for the operator (a notification of another merchant).
struct IntegrationStepFailure: Error {
    let reason: String
}

extension MerchantPasswords.RotationRejection {
    var wording: String {
        switch self {
        case .twoActive: "Two API passwords are active: retire one before generating another."
        case .lastActive: "This is the merchant's only active API password: generate a second one first."
        case .notActive(let fingerprint): "No active API password has the fingerprint \(fingerprint)."
        }
    }
}
