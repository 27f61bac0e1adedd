import X509

/// The certificates a token's chain may end at.
///
/// Production trusts Apple Root CA - G3 alone (``apple``). Tests and the sandbox add their own
/// roots with ``adding(_:)``; nothing else ever becomes trusted.
public struct TrustRoots: Sendable, Hashable {
    public let certificates: [Certificate]

    public init(_ certificates: [Certificate]) {
        self.certificates = certificates
    }

    /// Apple Root CA - G3 only.
    public static var apple: TrustRoots { TrustRoots([appleRootCAG3]) }

    public func adding(_ more: [Certificate]) -> TrustRoots {
        TrustRoots(certificates + more.filter { !certificates.contains($0) })
    }

    /// Whether Apple Root CA - G3 is the only anchor.
    public var isAppleOnly: Bool { certificates == [Self.appleRootCAG3] }
}
