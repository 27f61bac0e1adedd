import ApplePayToken
import GatewayCore
import WireJSON

extension JSONValue {
    /// Where a request carries a card security code.
    static let securityCodePaths: [[String]] = [["sourceOfFunds", "provided", "card", "securityCode"]]

    /// The request without its security codes: what a stored fingerprint may be computed over
    /// (PCI DSS 3.2: no security code in any form after authorization).
    func removingSecurityCodes() -> JSONValue {
        // Most requests carry none: the tree is then not rebuilt (three dictionary copies).
        Self.securityCodePaths.reduce(self) { value, path in value.holds(path[...]) ? value.removing(path[...]) : value }
    }

    private func holds(_ path: ArraySlice<String>) -> Bool {
        guard let key = path.first else { return true }
        guard case .object(let members) = self, let member = members[key] else { return false }
        return member.holds(path.dropFirst())
    }

    private func removing(_ path: ArraySlice<String>) -> JSONValue {
        guard let key = path.first, case .object(var members) = self, let member = members[key] else { return self }
        members[key] = path.count == 1 ? nil : member.removing(path.dropFirst())
        return .object(members)
    }
}
