/// The fields an MPGS transaction request may carry. Unknown names are rejected ("Unexpected
/// parameter"); known objects that are empty or unused by the operation are accepted and ignored,
/// as the real gateway does.
indirect enum FieldShape: Sendable {
    /// A string; numbers are accepted and read as their text ("05" and 5 alike).
    case text
    /// Any JSON value (checked where it is used).
    case any
    case object([String: FieldShape])

    static let transactionRequest: FieldShape = .object([
        "apiOperation": .text,
        "correlationId": .text,
        "partnerSolutionId": .text,
        "order": .object([
            "amount": .text, "currency": .text, "walletProvider": .text, "reference": .text, "description": .text,
            "customerReference": .text, "customerNote": .text,
        ]),
        "sourceOfFunds": .object([
            "type": .text,
            "provided": .object([
                "card": .object([
                    "number": .text, "securityCode": .text, "nameOnCard": .text,
                    "expiry": .object(["month": .text, "year": .text]),
                    "devicePayment": .object([
                        "paymentToken": .any, "cryptogramFormat": .text, "onlinePaymentCryptogram": .text,
                        "eciIndicator": .text, "applicationData": .text,
                    ]),
                ])
            ]),
        ]),
        "transaction": .object([
            "reference": .text, "source": .text, "amount": .text, "currency": .text, "targetTransactionId": .text,
        ]),
        "posTerminal": .object(["location": .text]),
        "device": .object([
            "ani": .text, "mobilePhoneModel": .text, "ipAddress": .text, "browser": .text, "fingerprint": .text,
        ]),
        "responseControls": .object(["sensitiveData": .text]),
    ])
}
