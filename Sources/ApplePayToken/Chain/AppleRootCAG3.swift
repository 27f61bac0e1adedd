import Crypto
import SwiftASN1
import X509

extension TrustRoots {
    /// SHA-256 of Apple Root CA - G3's DER, as Apple publishes it.
    public static let appleRootCAG3Fingerprint =
        "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"

    /// Apple Root CA - G3 (ECDSA P-384, valid until 2039-04-30): the only anchor for production tokens.
    /// The embedded copy is checked against the pinned fingerprint before it is trusted.
    public static let appleRootCAG3: Certificate = {
        let certificate: Certificate
        do {
            certificate = try Certificate(pemEncoded: appleRootCAG3PEM)
        } catch {
            fatalError("the embedded Apple Root CA - G3 does not parse: \(error)")
        }
        var serializer = DER.Serializer()
        try? serializer.serialize(certificate)
        let fingerprint = Hex.encode(Array(SHA256.hash(data: serializer.serializedBytes)), uppercase: true)
        precondition(fingerprint == appleRootCAG3Fingerprint, "the embedded Apple Root CA - G3 is not the pinned one")
        return certificate
    }()

    private static let appleRootCAG3PEM = """
        -----BEGIN CERTIFICATE-----
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwS
        QXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9u
        IEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
        MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBS
        b290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9y
        aXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtf
        TjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517
        IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gA
        MGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4
        at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
        6BgD56KyKA==
        -----END CERTIFICATE-----
        """
}
