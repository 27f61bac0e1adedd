import ApplePayToken

extension Mutator {
    /// The token with some of its signed bytes moved across a field boundary: the end of `data`
    /// into `transactionId`, the start of `transactionId` onto `data`, `transactionId` bytes into
    /// `applicationData` or back. The concatenation Apple signs is unchanged, so the signature
    /// still verifies; the fields' lengths are not.
    mutating func moveAcrossBoundary(_ token: PaymentToken) -> PaymentToken {
        var fields = [token.data, token.header.transactionIdBytes, token.header.applicationData ?? []]
        let boundary = Int.random(in: 0..<2, using: &random)
        let movesRight = Bool.random(using: &random)
        let source = movesRight ? boundary : boundary + 1
        let count = Int.random(in: 1...max(1, min(48, fields[source].count)), using: &random)
        if fields[source].count >= count {
            if movesRight {
                fields[boundary + 1].insert(contentsOf: fields[boundary].suffix(count), at: 0)
                fields[boundary].removeLast(count)
            } else {
                fields[boundary].append(contentsOf: fields[boundary + 1].prefix(count))
                fields[boundary + 1].removeFirst(count)
            }
        }
        var moved = token
        moved.data = fields[0]
        moved.header.transactionIdBytes = fields[1]
        moved.header.applicationData = fields[2].isEmpty ? nil : fields[2]
        return moved
    }
}
