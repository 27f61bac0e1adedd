import ApplePayToken
import Crypto
import Foundation
import WireJSON

/// The merchant session the sandbox answers at the validation URL, shaped like Apple's: the
/// merchant's server hands it to `completeMerchantValidation`, and the sheet sends it back with
/// the payment. Its `signature` is an HMAC over every field that matters, keyed by a key derived
/// from the sandbox authority, so any replica can check it and nobody can forge or alter one.
struct ApplePayMerchantSession: Sendable, Equatable {
    /// Milliseconds since 1970, as Apple writes them.
    var epochTimestamp: Int64
    var expiresAt: Int64
    var merchantSessionIdentifier: String
    var nonce: String
    /// Uppercase hex SHA-256 of the merchant identifier (what the identity certificate holds).
    var merchantIdentifier: String
    /// The page's domain (`initiativeContext`); empty when the request named none.
    var domainName: String
    var displayName: String
    var signature: String

    var json: JSONValue {
        .object([
            "epochTimestamp": .integer(epochTimestamp),
            "expiresAt": .integer(expiresAt),
            "merchantSessionIdentifier": .string(merchantSessionIdentifier),
            "nonce": .string(nonce),
            "merchantIdentifier": .string(merchantIdentifier),
            "domainName": .string(domainName),
            "displayName": .string(displayName),
            "signature": .string(signature),
            "operationalAnalyticsIdentifier": .string("\(displayName):\(merchantIdentifier)"),
            "retries": .integer(0),
            "pspId": .string(merchantIdentifier),
        ])
    }

    /// The session as a page sent it back (`merchantSession` in the payment request).
    init(reading fields: SandboxApplePayFields) throws(SandboxApplePayError) {
        epochTimestamp = try fields.integer("epochTimestamp")
        expiresAt = try fields.integer("expiresAt")
        merchantSessionIdentifier = try fields.text("merchantSessionIdentifier")
        nonce = try fields.text("nonce")
        merchantIdentifier = try fields.text("merchantIdentifier")
        domainName = try fields.optionalText("domainName") ?? ""
        displayName = try fields.text("displayName")
        signature = try fields.text("signature")
    }

    init(
        epochTimestamp: Int64,
        expiresAt: Int64,
        merchantSessionIdentifier: String,
        nonce: String,
        merchantIdentifier: String,
        domainName: String,
        displayName: String,
        signature: String = ""
    ) {
        self.epochTimestamp = epochTimestamp
        self.expiresAt = expiresAt
        self.merchantSessionIdentifier = merchantSessionIdentifier
        self.nonce = nonce
        self.merchantIdentifier = merchantIdentifier
        self.domainName = domainName
        self.displayName = displayName
        self.signature = signature
    }
}

/// Issues and checks merchant sessions.
struct ApplePayMerchantSessionSigner: Sendable {
    /// Apple's merchant sessions expire five minutes after they are made.
    static let lifetime: Int64 = 5 * 60 * 1000
    let key: SymmetricKey

    func issue(merchantIdentifierHash: [UInt8], domainName: String, displayName: String, now: Date) -> ApplePayMerchantSession {
        let issued = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let hash = Hex.encode(merchantIdentifierHash, uppercase: true)
        var session = ApplePayMerchantSession(
            epochTimestamp: issued,
            expiresAt: issued + Self.lifetime,
            merchantSessionIdentifier: "SSH" + Hex.encode(Self.random(16), uppercase: true) + "_" + hash,
            nonce: Hex.encode(Self.random(4)),
            merchantIdentifier: hash,
            domainName: domainName,
            displayName: displayName
        )
        session.signature = signature(of: session)
        return session
    }

    /// Throws why a session may not pay, naming the field. `originHost` is the host of the paying
    /// page's `Origin` header: a session issued for a domain pays only from a page on it.
    func check(_ session: ApplePayMerchantSession, now: Date, originHost: String?) throws(SandboxApplePayError) {
        let expected = Array(HMAC<SHA256>.authenticationCode(for: Self.signedBytes(session), using: key))
        guard let given = Hex.decode(session.signature), given.count == expected.count,
            zip(given, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else {
            throw .invalid(
                "merchantSession.signature",
                "The merchant session was not issued by this gateway's sandbox, or was changed: get a new one from the validation URL"
            )
        }
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        guard nowMilliseconds < session.expiresAt else {
            throw .invalid(
                "merchantSession.expiresAt",
                "The merchant session expired \((nowMilliseconds - session.expiresAt) / 1000) s ago (sessions last 5 minutes): validate the merchant again"
            )
        }
        if !session.domainName.isEmpty {
            guard let originHost else {
                throw .missing("Origin")
            }
            guard originHost.lowercased() == session.domainName.lowercased() else {
                throw .invalid(
                    "merchantSession.domainName",
                    "The merchant session was issued for '\(session.domainName)', not for the page at '\(originHost.prefix(255))'"
                )
            }
        }
    }

    private func signature(of session: ApplePayMerchantSession) -> String {
        Hex.encode(Array(HMAC<SHA256>.authenticationCode(for: Self.signedBytes(session), using: key)))
    }

    /// Every field but the signature, in a fixed order, as canonical JSON: no two sessions share it.
    private static func signedBytes(_ session: ApplePayMerchantSession) -> [UInt8] {
        JSONValue.array([
            .string("apple pay merchant session v1"),
            .integer(session.epochTimestamp),
            .integer(session.expiresAt),
            .string(session.merchantSessionIdentifier),
            .string(session.nonce),
            .string(session.merchantIdentifier),
            .string(session.domainName),
            .string(session.displayName),
        ]).serialized()
    }

    private static func random(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
