import GatewayCore
import PostgresNIO
import _ConnectionPoolModule

extension StoreUnavailable {
    /// Connection trouble becomes StoreUnavailable; a genuine query or decoding error (a bug)
    /// stays as it is, so it is logged with a support code as SERVER_FAILED.
    package static func classify(_ error: any Error) -> any Error {
        switch error {
        case is StoreUnavailable, is PostgresDecodingError:
            return error
        case let error as PSQLError where error.code == .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            guard PostgresRefusal.serverCannotServe(state) || PostgresRefusal.conflictToRetry(state) else { return error }
            return StoreUnavailable(reason: "PostgreSQL \(state): \(error.serverInfo?[.message] ?? "")")
        case let error as PSQLError:
            return StoreUnavailable(reason: "PostgreSQL connection: \(error.code)")
        case is ConnectionPoolError, is ChannelError, is IOError, is CancellationError:
            return StoreUnavailable(reason: "PostgreSQL connection: \(error)")
        default:
            return error
        }
    }
}

/// What a statement's refusal by the server (its SQLSTATE) says, read the same way wherever the
/// store decides what to do next.
enum PostgresRefusal {
    /// The server, or the connection to it, cannot take statements now: 08 connection exception,
    /// 53 insufficient resources, 57 operator intervention (shutdown), 25006
    /// read_only_sql_transaction (a failover demoted the server this connection reached).
    static func serverCannotServe(_ state: String) -> Bool {
        ["08", "53", "57"].contains(String(state.prefix(2))) || state == "25006"
    }

    /// A conflict with other transactions that a retry can win: 40 rollback (serialization,
    /// deadlock), 55P03 lock_not_available.
    static func conflictToRetry(_ state: String) -> Bool {
        state.hasPrefix("40") || state == "55P03"
    }
}
