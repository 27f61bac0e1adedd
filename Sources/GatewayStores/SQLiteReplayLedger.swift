import Crypto
import GatewayCore
import Synchronization

/// The Apple Pay tokens the SQLite store has accepted and not yet pruned, held in memory: the
/// replay check of every token AUTHORIZE and PAY.
///
/// The table keeps the same records on disk, appended in time order. It used to enforce them
/// itself, with a primary key on the transaction id and a unique index on the data digest: two
/// random keys, whose pages made 60% of a token AUTHORIZE's bytes written and 14-28 µs of the
/// writer's CPU. Memory can hold the check because a SQLite store has one writer: `serve` locks
/// the file for its lifetime (StartupClaims), and its records go through one serial queue
/// (``SQLiteGroupCommit``). Other commands that open the store record no transactions. The
/// ledger is read back from the table when the store opens, so a restart forgets nothing the
/// disk kept.
///
/// A claim counts from the moment it is made, so a second record of the same token in the same
/// batch is refused; the writer withdraws the claims of records that do not commit and settles
/// the rest once their transaction has.
final class SQLiteReplayLedger: Sendable {
    /// 128 bits of the SHA-256 of a key as the table spells it. Two keys meet only by a collision,
    /// and a collision would refuse a token, never accept a used one.
    struct Fingerprint: Hashable {
        let high: UInt64
        let low: UInt64

        init(_ key: String) {
            var key = key
            var hash = SHA256()
            key.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            (high, low) = hash.finalize().withUnsafeBytes {
                ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
    }

    /// One record's keys; the digest is absent from records of releases that had none.
    private struct Keys {
        let transactionId: Fingerprint
        let dataDigest: Fingerprint?

        init(transactionId: String, dataDigestHex: String?) {
            self.transactionId = Fingerprint(transactionId)
            self.dataDigest = dataDigestHex.map(Fingerprint.init)
        }

        /// A record as the table gives it back, `apple_pay_transaction_id` then `data_digest`
        /// (read at open, and returned by the pruning).
        init?(row: [SQLiteValue]) {
            guard let transactionId = row[0].text else { return nil }
            self.init(transactionId: transactionId, dataDigestHex: row[1].text)
        }
    }

    private struct State {
        var transactionIds: Set<Fingerprint> = []
        var dataDigests: Set<Fingerprint> = []
        /// Claims whose transaction has not committed yet, in the order they were made.
        var unsettled: [Keys] = []
    }

    private let state = Mutex(State())

    /// The records the table holds, read in pages by rowid so that a large table is never all
    /// in memory as rows at once.
    init(reading connection: SQLiteConnection) throws {
        var after: Int64 = 0
        while true {
            let rows = try connection.query(
                """
                SELECT apple_pay_transaction_id, data_digest, rowid FROM apple_pay_transactions
                WHERE rowid > ? ORDER BY rowid LIMIT 10000
                """,
                [.integer(after)]
            )
            guard let last = rows.last?[2].integer else { return }
            let records = rows.compactMap(Keys.init(row:))
            state.withLock { state in
                for keys in records { Self.insert(keys, into: &state) }
            }
            after = last
        }
    }

    /// Whether either key of `key` was used.
    func isUsed(_ key: ApplePayReplayKey) -> Bool {
        let keys = Keys(transactionId: key.transactionId, dataDigestHex: key.dataDigestHex)
        return state.withLock { state in Self.holds(state, keys) }
    }

    /// Records a token's keys as used, unless either already is.
    func claim(transactionId: String, dataDigestHex: String) -> Bool {
        let keys = Keys(transactionId: transactionId, dataDigestHex: dataDigestHex)
        return state.withLock { state in
            guard !Self.holds(state, keys) else { return false }
            Self.insert(keys, into: &state)
            state.unsettled.append(keys)
            return true
        }
    }

    /// How many claims are waiting for their transaction: the mark a savepoint withdraws back to.
    var unsettledCount: Int { state.withLock { $0.unsettled.count } }

    /// Withdraws the claims made since `mark`, whose writes were rolled back.
    func withdrawClaims(since mark: Int = 0) {
        state.withLock { state in
            for keys in state.unsettled[mark...] { Self.remove(keys, from: &state) }
            state.unsettled.removeSubrange(mark...)
        }
    }

    /// The transaction committed: its claims stand, and the records it pruned (rows of
    /// `apple_pay_transaction_id, data_digest`) are forgotten.
    func settle(forgetting pruned: [[SQLiteValue]]) {
        let forgotten = pruned.compactMap(Keys.init(row:))
        state.withLock { state in
            state.unsettled.removeAll(keepingCapacity: true)
            for keys in forgotten { Self.remove(keys, from: &state) }
        }
    }

    private static func holds(_ state: State, _ keys: Keys) -> Bool {
        if state.transactionIds.contains(keys.transactionId) { return true }
        return keys.dataDigest.map { state.dataDigests.contains($0) } ?? false
    }

    private static func insert(_ keys: Keys, into state: inout State) {
        state.transactionIds.insert(keys.transactionId)
        if let digest = keys.dataDigest { state.dataDigests.insert(digest) }
    }

    private static func remove(_ keys: Keys, from state: inout State) {
        state.transactionIds.remove(keys.transactionId)
        if let digest = keys.dataDigest { state.dataDigests.remove(digest) }
    }
}
