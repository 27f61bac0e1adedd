import SwiftASN1
import X509

/// Apple's chain shape on top of RFC 5280: leaf (marker 1.2.840.113635.100.6.29) issued by an
/// intermediate (marker 1.2.840.113635.100.6.2.14) issued by a trust root. The markers' values
/// do not matter, only their presence.
struct AppleChainPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [OID.leafMarker, OID.intermediateMarker]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates, Apple's has 3")
        }
        guard chain[0].extensions[oid: OID.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "the leaf lacks the Apple Pay leaf marker")
        }
        guard chain[1].extensions[oid: OID.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate lacks the Apple intermediate marker")
        }
        return .meetsPolicy
    }
}
