import ApplePayToken
import Foundation
import GatewayCore
import WireJSON

/// A session's content as JSON: what an update adds, what a payment reads, what a retrieval shows.
enum SessionContent {
    static let cardPath = ["sourceOfFunds", "provided", "card"]

    /// The stored groups of a request body (the operation's own fields and `session` dropped).
    static func storable(_ body: JSONValue) -> JSONValue {
        guard case .object(var members) = body else { return .object([:]) }
        for name in members.keys where !FieldShape.sessionGroups.contains(name) { members[name] = nil }
        return pruned(.object(members)) ?? .object([:])
    }

    /// `update` laid over `base`: the update wins field by field, except that a card it gives
    /// replaces the base's card as a whole, so a typed card number never mixes with a stored
    /// token (or the reverse). Used both for Update Session and for a payment naming a session,
    /// where the request is the update: the reference's precedence, request over session.
    static func merged(_ base: JSONValue, _ update: JSONValue) -> JSONValue {
        var base = base
        if hasContent(update, at: cardPath) { base = removing(cardPath, from: base) }
        return deepMerged(base, update)
    }

    /// What Retrieve and Update Session show: the card masked to its first six and last four,
    /// never its security code, the token or a cryptogram.
    static func masked(_ content: JSONValue) -> JSONValue {
        guard var card = value(content, at: cardPath), case .object(var members) = card else { return content }
        // Numbers are accepted as JSON numbers too: masked whatever their type.
        if let number = members["number"], let text = RequestReader(checked: .object(["n": number])).text("n") {
            members["number"] = .string(CardNumberMask.mask(text))
        }
        members["securityCode"] = nil
        // A payer who types the card number into the name field: masked as payments mask it.
        if case .string(let name) = members["nameOnCard"] { members["nameOnCard"] = .string(CardNumberRedaction.mask(name)) }
        if case .object(var device) = members["devicePayment"] {
            for secret in ["paymentToken", "onlinePaymentCryptogram", "applicationData"] { device[secret] = nil }
            members["devicePayment"] = device.isEmpty ? nil : .object(device)
        }
        card = .object(members)
        return replacing(cardPath, in: content, with: card)
    }

    static func value(_ root: JSONValue, at path: [String]) -> JSONValue? {
        var current = root
        for name in path {
            guard let next = current[name], next != .null else { return nil }
            current = next
        }
        return current
    }

    private static func hasContent(_ root: JSONValue, at path: [String]) -> Bool {
        guard let found = value(root, at: path) else { return false }
        return pruned(found) != nil
    }

    static func deepMerged(_ base: JSONValue, _ update: JSONValue) -> JSONValue {
        guard case .object(var members) = base, case .object(let updates) = update else {
            return update == .null ? base : update
        }
        for (name, value) in updates where value != .null {
            members[name] = members[name].map { deepMerged($0, value) } ?? value
        }
        return .object(members)
    }

    private static func removing(_ path: [String], from root: JSONValue) -> JSONValue {
        guard case .object(var members) = root, let first = path.first else { return root }
        if path.count == 1 {
            members[first] = nil
        } else if let child = members[first] {
            members[first] = removing(Array(path.dropFirst()), from: child)
        }
        return .object(members)
    }

    static func replacing(_ path: [String], in root: JSONValue, with value: JSONValue) -> JSONValue {
        guard case .object(var members) = root, let first = path.first else { return value }
        members[first] = replacing(Array(path.dropFirst()), in: members[first] ?? .object([:]), with: value)
        return .object(members)
    }

    /// Nulls and empty objects dropped; nil when nothing is left.
    private static func pruned(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .null: return nil
        case .object(let members):
            let kept = members.compactMapValues(pruned)
            return kept.isEmpty ? nil : .object(kept)
        default: return value
        }
    }
}
