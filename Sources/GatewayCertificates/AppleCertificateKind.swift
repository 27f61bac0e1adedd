import ApplePayToken
import Crypto
import Foundation
import SwiftASN1
import X509

/// Which of Apple's two merchant certificates a `.cer` is. Both carry the merchant identifier
/// extension 1.2.840.113635.100.6.32, so that alone does not tell them apart. What does, as seen in
/// public certificates Apple issued (the conformance vectors' five Payment Processing certificates,
/// and a public "Apple Pay Merchant Identity:merchant.com.mintitmedia" certificate):
/// - Merchant Identity (TLS client certificate for Apple Pay on the web's merchant validation):
///   extension 1.2.840.113635.100.6.46 and extended key usage TLS client authentication;
/// - Payment Processing (the key tokens are encrypted to): neither of those, key usage
///   key agreement (EC) or key encipherment (RSA).
enum AppleCertificateKind: Equatable {
    case paymentProcessing
    case merchantIdentity
    /// Not an Apple Pay merchant certificate: no merchant identifier extension.
    case other

    static let merchantIdentifierExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 32]
    static let merchantIdentityMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 46]

    init(_ certificate: Certificate) {
        let extensions = certificate.extensions
        let clientAuthentication = (try? extensions.extendedKeyUsage)??.contains(.clientAuth) ?? false
        if extensions[oid: Self.merchantIdentityMarker] != nil || clientAuthentication {
            self = .merchantIdentity
        } else if extensions[oid: Self.merchantIdentifierExtension] != nil {
            self = .paymentProcessing
        } else {
            self = .other
        }
    }
}
