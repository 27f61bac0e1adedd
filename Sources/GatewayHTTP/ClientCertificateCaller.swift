/// Issue 32: what the certificate listener found of a request's client certificate. Nil in the
/// request context on the password listener.
package enum ClientCertificateCaller: Sendable, Equatable {
    /// A valid certificate configured for these merchants.
    case merchants(Set<String>)
    /// A certificate the gateway does not accept.
    case refused(ClientCertificateRefusal)
}

/// Why a client certificate authenticates no merchant.
package enum ClientCertificateRefusal: Sendable, Equatable {
    case absent
    case unreadable
    case expired
    case notYetValid
    /// Neither pinned for a merchant nor signed, for a configured subject, by a configured issuer.
    case unknown
}
