import GatewayCore

/// The MPGS encoding for transactions Merchant Administration makes: they are stored as the MPGS
/// API would have answered them, so Retrieve Transaction returns them like any other.
package enum MPGSResponseEncoding {
    package static var encoder: any TransactionResponseEncoding { MPGSResponseEncoder() }
}
