extension PaymentOptions.ThreeDSecureVersion {
    /// The versions this gateway has among those `authentication.acceptVersions` names (a comma
    /// separated list, as the request catalogue checks it); all of them when the merchant named
    /// none. Empty when the merchant accepts only versions the simulator does not offer (3DS1).
    package static func accepted(_ acceptVersions: String?) -> [Self] {
        guard let acceptVersions else { return allCases }
        let named = Set(acceptVersions.split(separator: ",").map(String.init))
        return allCases.filter { named.contains($0.rawValue) }
    }
}
