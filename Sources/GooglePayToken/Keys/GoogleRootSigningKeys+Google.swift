extension GoogleRootSigningKeys {
    /// Google's root signing keys for its TEST environment, as published at
    /// https://payments.developers.google.com/paymentmethodtoken/test/keys.json (checked against a
    /// real test-environment token in the tests). Public keys; refresh them when Google rotates.
    public static let googleTest: GoogleRootSigningKeys = {
        // The document is Google's; only whitespace differs.
        let document = """
            {"keys":[\
            {"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEIsFro6K+IUxRr4yFTOTO+kFCCEvHo7B9IOMLxah6c977oFzX/beObH4a9OfosMHmft3JJZ6B3xpjIb8kduK4/A==",\
            "protocolVersion":"ECv1"},\
            {"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGnJ7Yo1sX9b4kr4Aa5uq58JRQfzD8bIJXw7WXaap/hVE+PnFxvjx4nVxt79SdRuUVeu++HZD0cGAv4IOznc96w==",\
            "protocolVersion":"ECv2","keyExpiration":"2154841200000"},\
            {"keyValue":"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGnJ7Yo1sX9b4kr4Aa5uq58JRQfzD8bIJXw7WXaap/hVE+PnFxvjx4nVxt79SdRuUVeu++HZD0cGAv4IOznc96w==",\
            "protocolVersion":"ECv2SigningOnly","keyExpiration":"2154841200000"}]}
            """
        // A constant that parses in the tests; a failure here is a programming error.
        guard let keys = try? GoogleRootSigningKeys(keysJSON: document) else { preconditionFailure("the embedded test root keys do not parse") }
        return keys
    }()
}
