import Foundation
import GatewayCore
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import Gateway
@testable import MPGSAPI

/// Update Session exactly as Mastercard's iOS SDK sends it (`Gateway.updateSession`): from API
/// version 50 `Authorization` is the Base64 of `merchant.<ID>:<session id>` with no scheme;
/// below 50 there is no `Authorization` and the body says `"apiOperation":"UPDATE_PAYER_DATA"`.
/// Sent through a real socket with the SDK's headers and its JSONEncoder body.
@Suite("Sessions: Mastercard's mobile SDK, byte for byte")
struct MobileSDKSessionTests {
    /// What the SDK's `updateSession(_:apiVersion:payload:)` puts on the wire.
    struct SDKUpdate: Encodable {
        struct Order: Encodable { var walletProvider = "APPLE_PAY" }
        struct Device: Encodable { var browser = "Gateway-iOS-SDK/1.2.1" }
        var apiOperation: String?
        var order = Order()
        var sourceOfFunds: [String: [String: [String: [String: String]]]]
        var device = Device()
    }

    /// The request the SDK builds, with its headers; `authorization` overrides its header.
    static func sdkUpdate(
        _ client: some TestClientProtocol,
        sessionId: String,
        apiVersion: Int,
        token: String,
        merchant: String = TestGateway.merchantId,
        authorization: String?? = .none,
        apiOperation: String?? = .none
    ) async throws -> Exchange {
        var body = SDKUpdate(sourceOfFunds: ["provided": ["card": ["devicePayment": ["paymentToken": token]]]])
        if apiVersion < 50 { body.apiOperation = "UPDATE_PAYER_DATA" }
        if case .some(let operation) = apiOperation { body.apiOperation = operation }
        let sdkHeader = Data("merchant.\(merchant):\(sessionId)".utf8).base64EncodedString()
        let header: String? = if case .some(let given) = authorization { given } else { apiVersion >= 50 ? sdkHeader : nil }
        var headers: HTTPFields = [.userAgent: "Gateway-iOS-SDK/1.2.1", .contentType: "application/json"]
        if let header { headers[.authorization] = header }
        return try await client.execute(
            uri: "/api/rest/version/\(apiVersion)/merchant/\(merchant)/session/\(sessionId)",
            method: .put,
            headers: headers,
            body: ByteBuffer(bytes: Array(try JSONEncoder().encode(body)))
        ) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Exchange(status: response.status, body: text, json: json)
        }
    }

    @Test("the SDK's Apple Pay flow: token into the session, then the merchant's PAY", arguments: [50, 61, 100, 39, 49])
    func applePayFlow(apiVersion: Int) async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        // The SDK's JSONEncoder escapes '/' as '\/' in the token string: the gateway must read it back.
        #expect(String(decoding: try JSONEncoder().encode([token]), as: UTF8.self).contains("\\/") == token.contains("/"))
        try await gateway.application.test(.live) { client in
            let created = try await client.send(SessionRequests.sessionsPath(version: apiVersion), method: .post)
            let id = try #require(created.string("session.id"), "\(created.body)")
            let updated = try await Self.sdkUpdate(client, sessionId: id, apiVersion: apiVersion, token: token)
            #expect(updated.status == .ok, "\(updated.body)")
            #expect(updated.string("session.updateStatus") == "SUCCESS")
            let paid = try await client.put(
                TestGateway.path(order: "sdk-\(apiVersion)", transaction: "1", version: apiVersion),
                SessionRequests.payment(id)
            )
            #expect(paid.status == .created, "\(paid.body)")
            #expect(paid.string("response.gatewayCode") == "APPROVED")
            #expect(paid.string("sourceOfFunds.provided.card.deviceSpecificNumber")?.hasSuffix("1488") == true)
        }
    }

    @Test("the scheme-less credential opens its own session and nothing else")
    func schemelessConfined() async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            let id = try await client.newSessionId()
            let other = try await client.newSessionId()
            let schemeless = { (user: String, password: String) in Data("\(user):\(password)".utf8).base64EncodedString() }
            let sessionHeader = schemeless("merchant.\(TestGateway.merchantId)", id)
            let passwordHeader = schemeless("merchant.\(TestGateway.merchantId)", TestGateway.password)

            // Another session's id, the API password without a scheme, or a padded/garbled value: no.
            for header in [schemeless("merchant.\(TestGateway.merchantId)", other), passwordHeader, sessionHeader + "=", "Bearer " + sessionHeader] {
                let refused = try await Self.sdkUpdate(client, sessionId: id, apiVersion: 100, token: token, authorization: .some(header))
                #expect(refused.status == .unauthorized, "\(header): \(refused.body)")
            }
            // The merchant's routes want `Basic` and the API password; the session credential without a scheme opens none.
            for header in [sessionHeader, passwordHeader] {
                let retrieve = try await client.send(SessionRequests.sessionPath(id), method: .get, authorization: header)
                #expect(retrieve.status == .unauthorized, "retrieve: \(retrieve.body)")
                let pay = try await client.put(
                    TestGateway.path(order: "schemeless", transaction: "1"),
                    SessionRequests.payment(id),
                    authorization: header
                )
                #expect(pay.status == .unauthorized, "pay: \(pay.body)")
                let create = try await client.send(SessionRequests.sessionsPath(), method: .post, authorization: header)
                #expect(create.status == .unauthorized, "create: \(create.body)")
            }
            // The payer's device may not set what only the merchant sets.
            let amount = try await client.put(
                SessionRequests.sessionPath(id),
                TestGateway.json(["order": ["amount": "0.01", "currency": "USD"]]),
                authorization: sessionHeader
            )
            #expect(amount.status == .badRequest)
            #expect(amount.string("error.field") == "order.amount")
            let accepted = try await Self.sdkUpdate(client, sessionId: id, apiVersion: 100, token: token)
            #expect(accepted.status == .ok, "\(accepted.body)")
        }
    }

    @Test("no Authorization: below version 50 with UPDATE_PAYER_DATA only, limited as the session credential")
    func noAuthorizationBelowFifty() async throws {
        let gateway = try await TestGateway()
        let token = try TestGateway.mintToken(amountMinorUnits: 5656)
        try await gateway.application.test(.live) { client in
            let created = try await client.send(SessionRequests.sessionsPath(version: 49), method: .post)
            let id = try #require(created.string("session.id"))

            // Version 50 and later need the credential; below 50 the operation must be named.
            let atFifty = try await Self.sdkUpdate(client, sessionId: id, apiVersion: 50, token: token, authorization: .some(nil))
            #expect(atFifty.status == .unauthorized)
            let noOperation = try await Self.sdkUpdate(client, sessionId: id, apiVersion: 49, token: token, apiOperation: .some(nil))
            #expect(noOperation.status == .unauthorized)
            let unknown = try await Self.sdkUpdate(client, sessionId: "SESSION0002776555272H3620385K43", apiVersion: 49, token: token)
            #expect(unknown.status == .unauthorized)
            let otherMerchant = try await Self.sdkUpdate(
                client,
                sessionId: id,
                apiVersion: 49,
                token: token,
                merchant: TestGateway.otherMerchantId
            )
            #expect(otherMerchant.status == .unauthorized)
            let amount = try await client.put(
                SessionRequests.sessionPath(id, version: 49),
                TestGateway.json(["apiOperation": "UPDATE_PAYER_DATA", "order": ["amount": "0.01", "currency": "USD"]]),
                authorization: nil
            )
            #expect(amount.status == .badRequest)
            #expect(amount.string("error.field") == "order.amount")
            // Nothing was stored by the refusals: the session is still as created.
            let retrieved = try await client.send(SessionRequests.sessionPath(id, version: 49), method: .get)
            #expect(retrieved.string("session.updateStatus") == "NO_UPDATE")
            #expect(try await client.send(SessionRequests.sessionPath(id, version: 49), method: .get, authorization: nil).status == .unauthorized)

            let accepted = try await Self.sdkUpdate(client, sessionId: id, apiVersion: 49, token: token)
            #expect(accepted.status == .ok, "\(accepted.body)")
        }
    }
}
