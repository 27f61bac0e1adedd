import Foundation

/// What to put in a minted token: its version, who signs it, and the payment data a device would encrypt.
///
/// Every field has a realistic default, so `MintRequest()` is a valid EC_v1 3-D Secure token for
/// USD 56.56; change only what a test is about.
public struct MintRequest: Sendable {
    /// The token format, which must suit the recipient's key.
    public enum Version: Sendable {
        /// ECDH P-256 + AES-256-GCM: needs an EC recipient.
        case ecV1
        /// RSA-OAEP key wrap + AES-128-GCM: needs an RSA recipient.
        case rsaV1
    }

    /// Which of the authority's leaves signs the token.
    public enum Signer: Sendable {
        /// The P-256 leaf (ecdsa-with-SHA256), as Apple signs today.
        case ecLeaf
        /// The RSA-2048 leaf (sha256WithRSAEncryption).
        case rsaLeaf
    }

    /// The `paymentData` dictionary inside the payment data, by `paymentDataType`.
    public enum Details: Sendable {
        /// `paymentDataType` "3DSecure": the online payment cryptogram and the optional ECI indicator.
        case threeDSecure(onlinePaymentCryptogram: String, eciIndicator: String?)
        /// `paymentDataType` "EMV": the EMV payment structure and, for RSA_v1, the encrypted PIN data (hex).
        case emv(emvData: String, encryptedPINData: String?)
    }

    public var version: Version = .ecV1
    public var signer: Signer = .ecLeaf
    /// The device PAN.
    public var applicationPrimaryAccountNumber: String = "5204245250001488"
    /// YYMMDD.
    public var applicationExpirationDate: String = "301231"
    /// ISO 4217 numeric.
    public var currencyCode: String = "840"
    /// Minor units of `currencyCode`.
    public var transactionAmount: Int64 = 5656
    public var cardholderName: String? = nil
    public var deviceManufacturerIdentifier: String = "040010030273"
    /// Default: 3-D Secure with a fresh random cryptogram (base64 of 20 bytes, like a network's) and ECI 7.
    public var details: Details = .threeDSecure(
        onlinePaymentCryptogram: Data(Bytes.random(count: 20)).base64EncodedString(),
        eciIndicator: "7"
    )
    /// Raw application data; the header carries hex SHA-256 of it and it is part of the signed content.
    public var applicationData: [UInt8]? = nil
    /// The CMS signing time; a decryptor accepts it within its window (default 5 minutes) of its clock.
    public var signingTime: Date = Date()
    /// The device's transaction identifier; default: 32 random bytes.
    public var transactionId: [UInt8]? = nil

    public init() {}
}

extension MintRequest {
    /// The payment data JSON as a device encrypts it (Apple's key order, amount as a number).
    var paymentDataJSON: String {
        var fields: [(String, JSONText)] = [
            ("applicationPrimaryAccountNumber", .string(applicationPrimaryAccountNumber)),
            ("applicationExpirationDate", .string(applicationExpirationDate)),
            ("currencyCode", .string(currencyCode)),
            ("transactionAmount", .integer(transactionAmount)),
        ]
        if let cardholderName { fields.append(("cardholderName", .string(cardholderName))) }
        fields.append(("deviceManufacturerIdentifier", .string(deviceManufacturerIdentifier)))
        switch details {
        case .threeDSecure(let cryptogram, let eci):
            var details: [(String, JSONText)] = [("onlinePaymentCryptogram", .string(cryptogram))]
            if let eci { details.append(("eciIndicator", .string(eci))) }
            fields.append(("paymentDataType", .string("3DSecure")))
            fields.append(("paymentData", .object(details)))
        case .emv(let emvData, let encryptedPINData):
            var details: [(String, JSONText)] = [("emvData", .string(emvData))]
            if let encryptedPINData { details.append(("encryptedPINData", .string(encryptedPINData))) }
            fields.append(("paymentDataType", .string("EMV")))
            fields.append(("paymentData", .object(details)))
        }
        return JSONText.object(fields).text
    }
}
