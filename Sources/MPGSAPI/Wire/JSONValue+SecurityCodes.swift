import ApplePayToken
import GatewayCore
import WireJSON

extension JSONValue {
    /// Where a request carries a card security code.
    static let securityCodePaths: [[String]] = [["sourceOfFunds", "provided", "card", "securityCode"]]

    /// The request without its security codes: what a stored fingerprint may be computed over
    /// (PCI DSS 3.2: no security code in any form after authorization).
    func removingSecurityCodes() -> JSONValue {
        Self.securityCodePaths.reduce(self) { $0.removing($1[...]) }
    }

    private func removing(_ path: ArraySlice<String>) -> JSONValue {
        guard let key = path.first, case .object(var members) = self, let member = members[key] else { return self }
        members[key] = path.count == 1 ? nil : member.removing(path.dropFirst())
        return .object(members)
    }
}
