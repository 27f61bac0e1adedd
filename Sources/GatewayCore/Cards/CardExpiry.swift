/// A card expiry as MPGS carries it: month 1-12, two-digit year.
package struct CardExpiry: Sendable, Hashable {
    package var month: Int
    package var year: Int

    /// Month 1-12 and a two-digit year (the caller has checked both).
    package init(month: Int, year: Int) {
        self.month = month
        self.year = year
    }

    /// From Apple's applicationExpirationDate, YYMMDD.
    package init?(applePayDate: String) {
        let digits = Array(applePayDate.utf8)
        guard digits.count == 6, digits.allSatisfy({ (48...57).contains($0) }),
            let year = Int(applePayDate.prefix(2)), let month = Int(applePayDate.dropFirst(2).prefix(2)),
            (1...12).contains(month)
        else { return nil }
        self.month = month
        self.year = year
    }
}
