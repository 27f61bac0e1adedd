import Foundation

/// Where the store lives, as the `store.url` key names it.
package enum StoreLocation: Sendable, Equatable {
    /// One SQLite file: one gateway process.
    case sqlite(path: String)
    /// A PostgreSQL database: any number of gateway replicas share it.
    case postgres(PostgresLocation)

    package init(url: String) throws(InvalidStoreURL) {
        if url.hasPrefix("sqlite://") {
            let path = String(url.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw InvalidStoreURL("names no file") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: url))
        } else {
            throw InvalidStoreURL(
                "must start with sqlite://, postgres:// or postgresql:// (got \(StoreLocation.redacted(url)))"
            )
        }
    }

    /// The URL with any password replaced, for logs and messages.
    package static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "redacted"
        return components.string ?? "(unprintable URL)"
    }
}

/// A `store.url` that names no store this gateway can open; configuration reports it under
/// that key.
package struct InvalidStoreURL: Error, CustomStringConvertible {
    package let problem: String
    init(_ problem: String) { self.problem = problem }
    package var description: String { "store.url \(problem)" }
}

/// `postgres://user[:password]@host[:port]/database[?sslmode=disable|require][&pool_mode=transaction]`.
package struct PostgresLocation: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var username: String
    package var password: String?
    package var database: String
    /// `sslmode=require`: TLS with certificate verification; the default talks plain TCP (a
    /// database on the same host or private network).
    package var requiresTLS: Bool
    /// `pool_mode=transaction`: the server is a PgBouncer in transaction pooling mode, which
    /// hands each transaction to any of its server connections and (before 1.21) keeps no
    /// prepared statement across them, nor accepts `statement_timeout` at connection start. The
    /// store then sends every statement unnamed and leaves the timeout to the role's setting.
    package var transactionPooling: Bool = false

    package init(url: String) throws(InvalidStoreURL) {
        let shown = StoreLocation.redacted(url)
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw InvalidStoreURL("is not a postgres://user@host:port/database URL (got \(shown))")
        }
        guard let username = components.user, !username.isEmpty else {
            throw InvalidStoreURL("names no user: postgres://user@host:port/database (got \(shown))")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw InvalidStoreURL("names no database: postgres://user@host:port/database (got \(shown))")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw InvalidStoreURL("has an invalid port") }
        var requiresTLS = false
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("sslmode", "disable"): requiresTLS = false
            case ("sslmode", "require"): requiresTLS = true
            case ("pool_mode", "session"): transactionPooling = false
            case ("pool_mode", "transaction"): transactionPooling = true
            default:
                throw InvalidStoreURL(
                    "has an unsupported parameter '\(item.name)=\(item.value ?? "")' "
                        + "(only sslmode=disable|require and pool_mode=session|transaction)"
                )
            }
        }
        self.host = host
        self.port = port
        self.username = username
        self.password = components.password
        self.database = database
        self.requiresTLS = requiresTLS
    }
}

extension StoreLocation {
    /// Shared by replicas, so whatever keys its contents must be configured, not generated.
    package var isPostgres: Bool {
        if case .postgres = self { true } else { false }
    }
}
