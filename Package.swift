// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "applepay-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ApplePayToken", targets: ["ApplePayToken"]),
        .library(name: "ApplePaySandbox", targets: ["ApplePaySandbox"]),
        .executable(name: "gateway", targets: ["GatewayCLI"]),
        .executable(name: "token-bench", targets: ["TokenBenchmark"]),
        .executable(name: "http-bench-tokens", targets: ["GatewayBenchmark"]),
        .executable(name: "http-bench-rate", targets: ["RateBenchmark"]),
        .executable(name: "http-bench-webhook-send", targets: ["WebhookSendBenchmark"]),
        .executable(name: "token-fuzz", targets: ["TokenFuzzer"]),
        .executable(name: "request-fuzz", targets: ["RequestFuzzer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Already in the graph through Hummingbird; named here for the connection handlers.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // Issue 32: HTTPS, HTTP/2 and certificate authentication.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        // Merchant Administration (the /ma/ console): its HTML templates.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Webhook notifications: the delivery loop's HTTP client.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already in the graph through Hummingbird; named here for the browser pages' headers.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // The system libcrypto: RSA-OAEP at OpenSSL's speed, and PKCS#12 with legacy encryption.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The wire JSON: one strict RFC 8259 reader and a canonical writer, shared by the token
        // library, the core's request echo and the front ends. Package API only.
        .target(name: "WireJSON"),
        // Verifies and decrypts Apple Pay payment tokens. No HTTP, no database.
        .target(
            name: "ApplePayToken",
            dependencies: [
                "COpenSSL",
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // A certificate authority shaped like Apple's and a token minter, for tests and the sandbox.
        .target(
            name: "ApplePaySandbox",
            dependencies: [
                "ApplePayToken",
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // Verifies and decrypts Google Pay payment method tokens (ECv2, ECv1, ECv2SigningOnly). No HTTP, no database.
        .target(
            name: "GooglePayToken",
            dependencies: [
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // A sandbox Google root and an ECv2 token minter, for tests and the sandbox.
        .target(
            name: "GooglePaySandbox",
            dependencies: [
                "GooglePayToken",
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The system SQLite for the embedded store.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A VFS over SQLite's own that writes each commit's write-ahead log in one system call.
        .target(name: "CSQLiteWALBuffer", dependencies: ["CSQLite"]),
        // The payment rules as types: money, the order ledger, the processors, the simulated
        // acquirer, the store protocol and typed rejections. No HTTP, NIO, database or wire JSON.
        .target(
            name: "GatewayCore",
            dependencies: [
                "ApplePayToken",
                "GooglePayToken",
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                // Merchant Administration: operators' passwords as PBKDF2-SHA256.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The SQLite and PostgreSQL stores of the core's TransactionStore (and SessionStore):
        // typed columns, migrations, group commit. They know the core and their databases only.
        .target(
            name: "GatewayStores",
            dependencies: [
                "ApplePayToken",
                "GatewayCore",
                "WireJSON",
                "CSQLite",
                "CSQLiteWALBuffer",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What every HTTP front end shares: the request context, reading a body, refusing a method.
        .target(
            name: "GatewayHTTP",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ]
        ),
        // The server's connections, knowing no front end: admission, HTTP/1.1 and HTTP/2 (over
        // TLS) with their deadlines and limits, each request handed to a router whole. What a
        // client reads for a request refused here is its front end's, supplied by the composition.
        .target(
            name: "GatewayTransport",
            dependencies: [
                "GatewayHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                // Client certificates: which merchants the peer's certificate stands for.
                .product(name: "X509", package: "swift-certificates"),
            ],
            exclude: ["README.md"]
        ),
        // The Radial-style Payment Service front end (XML CreditCardAuth and Decrypt) over the core:
        // its own reader, writer, faults and replies. It never imports the MPGS front end.
        .target(
            name: "RadialAPI",
            dependencies: [
                "ApplePayToken",
                "GatewayCore",
                "GatewayHTTP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The MPGS REST front end over the core: routes, the request catalogue, the wire JSON of
        // requests and responses, errors, sessions and the sandbox token endpoint. It never
        // imports the Radial front end or the server.
        .target(
            name: "MPGSAPI",
            dependencies: [
                "ApplePayToken",
                "ApplePaySandbox",
                "GooglePaySandbox",
                "GooglePayToken",
                "GatewayCore",
                "GatewayHTTP",
                "WireJSON",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The request catalogue's source: embedded by scripts/generate-request-catalogue.
            exclude: ["Routes/Catalogue/transaction-request.catalogue"]
        ),
        // Merchant Administration: the operators' web console at /ma/ (server-rendered HTML over
        // the core's rules and the same processors as the API). Never MPGSAPI, RadialAPI or stores.
        .target(
            name: "MerchantConsole",
            dependencies: [
                "GatewayCore",
                "GatewayHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // The browser half: Hosted Checkout (checkout.js and the payment page), and the sandbox
        // wallet scripts. A hosted payment is an API payment with another entry point, so it
        // pays through the MPGS front end's own transaction path; it never imports the console,
        // Radial or the server.
        .target(
            name: "WebCheckout",
            dependencies: [
                "ApplePaySandbox",
                "ApplePayToken",
                "GatewayCore",
                "GooglePaySandbox",
                "GooglePayToken",
                "GatewayHTTP",
                "MPGSAPI",
                "WireJSON",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The gateway's certificate and key files: Apple Pay identities (payment processing keys,
        // their CSRs and certificates on disk), the sandbox's local TLS authority, and merchants'
        // client certificates. No configuration, no HTTP.
        .target(
            name: "GatewayCertificates",
            dependencies: [
                "ApplePaySandbox",
                "ApplePayToken",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // Webhook notifications: the delivery loop that sends the outbox's notifications to each
        // merchant's receiver (signed, retried, never to a forbidden address), and its metrics.
        .target(
            name: "GatewayNotifications",
            dependencies: [
                "GatewayCore",
                "MPGSAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What operators watch: Prometheus metrics, JSON logs with card numbers masked, the request
        // log line, the stage trace, and the health, readiness and metrics endpoints.
        .target(
            name: "GatewayObservability",
            dependencies: [
                "ApplePayToken",
                "GatewayCore",
                "GatewayHTTP",
                "GatewayTransport",
                "MPGSAPI",
                "RadialAPI",
                "WireJSON",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The server: configuration, the one assembly point (stores and front ends on one router),
        // connection hardening, health, metrics and logs, Apple Pay identities on disk.
        // The `--config` JSON file: its keys with their line and column, and the configuration
        // mistake every reader of the configuration reports.
        .target(
            name: "GatewayConfigurationFile",
            dependencies: [.product(name: "Configuration", package: "swift-configuration")]
        ),
        .target(
            name: "Gateway",
            dependencies: [
                "ApplePayToken",
                "ApplePaySandbox",
                "GooglePaySandbox",
                "GooglePayToken",
                "GatewayCore",
                "GatewayHTTP",
                "GatewayCertificates",
                "GatewayConfigurationFile",
                "GatewayNotifications",
                "GatewayObservability",
                "GatewayStores",
                "GatewayTransport",
                "MPGSAPI",
                "RadialAPI",
                "WireJSON",
                "MerchantConsole",
                "WebCheckout",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // Issue 32: HTTPS, HTTP/2 and certificate authentication.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The operators' commands on the configured store: `gateway operator` (Merchant
        // Administration's operators) and `gateway notifications` (the webhook outbox).
        .target(
            name: "GatewayAdministration",
            dependencies: ["Gateway", "GatewayConfigurationFile", "GatewayCore", "GatewayStores"]
        ),
        // The `gateway` command: subcommands grow with the service.
        .executableTarget(
            name: "GatewayCLI",
            dependencies: [
                "ApplePayToken",
                "ApplePaySandbox",
                "Gateway",
                "GatewayAdministration",
                "GatewayCertificates",
                "GatewayConfigurationFile",
                "GooglePaySandbox",
                "GooglePayToken",
                "MPGSAPI",
                "WireJSON",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/gateway"
        ),
        // Tokens per second against the OpenSSL limit; run through scripts/bench-token.
        .executableTarget(
            name: "TokenBenchmark",
            dependencies: [
                "ApplePayToken",
                "WireJSON",
                "GooglePayToken",
                "GooglePaySandbox",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // What the two fuzzers share: their deterministic generator.
        .target(name: "FuzzingSupport"),
        // Mutation fuzzing of the token parsers and the CMS reader over the real vectors; CI runs it.
        .executableTarget(
            name: "TokenFuzzer",
            dependencies: ["ApplePayToken", "FuzzingSupport"]
        ),
        // Mutation fuzzing of the other parsers of outside input (Radial XML, the console's forms,
        // the MPGS request JSON, the HTTP/1 head) over seeds from real requests; CI runs it.
        .executableTarget(
            name: "RequestFuzzer",
            dependencies: [
                "FuzzingSupport",
                "Gateway",
                "GatewayCore",
                "MerchantConsole",
                "MPGSAPI",
                "RadialAPI",
                "WireJSON",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        // Mints the distinct tokens scripts/bench-http sends (each token is accepted once).
        .executableTarget(
            name: "GatewayBenchmark",
            dependencies: ["ApplePaySandbox", "ApplePayToken", "WireJSON"]
        ),
        // The constant-rate load behind scripts/bench-http's p99_half_load_ms: one thread, poll(2).
        .executableTarget(name: "RateBenchmark"),
        // scripts/bench-webhooks' floor: what async-http-client's send alone costs per webhook.
        .executableTarget(
            name: "WebhookSendBenchmark",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")]
        ),
        .testTarget(
            name: "WireJSONTests",
            dependencies: ["WireJSON"]
        ),
        .testTarget(
            name: "ApplePayTokenTests",
            dependencies: [
                "ApplePayToken",
                "WireJSON",
                "TextEdits",
                "BlockingWork",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            // Minting/ is the Python minter; Fixtures/ the conformance vectors (data, not sources).
            exclude: ["Minting", "Fixtures"]
        ),
        .testTarget(
            name: "ApplePaySandboxTests",
            dependencies: [
                "ApplePaySandbox",
                "ApplePayToken",
                "BlockingWork",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // Google Pay tokens: public vectors, tokens minted by Python, single-byte tampering.
        .testTarget(
            name: "GooglePayTokenTests",
            dependencies: [
                "GooglePayToken",
                "GooglePaySandbox",
                "WireJSON",
                "BlockingWork",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Minting/ is the Python minter; Fixtures/ the public vectors (data, not sources).
            exclude: ["Minting", "Fixtures"]
        ),
        // Starts throwaway PostgreSQL servers, so the store and replica tests need no setup.
        .target(
            name: "PostgresTestServer",
            dependencies: ["BlockingWork"],
            path: "Tests/PostgresTestServer"
        ),
        // The two stores as tests open them (a fresh SQLite file or PostgreSQL database), and the
        // core's values written as MPGS spells them: shared by the store and gateway tests.
        .target(
            name: "StoreTestSupport",
            dependencies: [
                .product(name: "NIOPosix", package: "swift-nio"),
                "GatewayCore",
                "GatewayStores",
                "PostgresTestServer",
                "BlockingWork",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/StoreTestSupport"
        ),
        // A thread pool for tests that block threads, kept off Swift's cooperative pool.
        .target(
            name: "BlockingWork",
            dependencies: ["CSpawn"],
            path: "Tests/BlockingWork"
        ),
        // glibc's posix_spawn closefrom and chdir actions, for the tests' child processes.
        .systemLibrary(
            name: "CSpawn",
            path: "Tests/CSpawn"
        ),
        // For tests: a SQLite VFS that fails writes and syncs on demand and can cut the power.
        .target(
            name: "CSQLiteFaultVFS",
            dependencies: ["CSQLite"],
            path: "Tests/CSQLiteFaultVFS"
        ),
        // Random edits of example texts, for tests comparing two implementations of a check.
        .target(
            name: "TextEdits",
            path: "Tests/TextEdits"
        ),
        // The store contract, run against SQLite and PostgreSQL alike, and each store's own parts:
        // with the core and the stores only, no HTTP.
        .testTarget(
            name: "GatewayStoresTests",
            dependencies: [
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "BlockingWork",
                "CSQLiteFaultVFS",
                "CSQLiteWALBuffer",
                "GatewayCore",
                "GatewayStores",
                "StoreTestSupport",
                "PostgresTestServer",
                "WireJSON",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The transport's handlers on embedded channels: admission, HTTP/1.1 and HTTP/2 requests.
        .testTarget(
            name: "GatewayTransportTests",
            dependencies: [
                "GatewayTransport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        // The Radial front end's own parts (its XML reader and writer), without the server.
        .testTarget(
            name: "RadialAPITests",
            dependencies: ["RadialAPI"]
        ),
        // The MPGS front end's pure logic (catalogue, request reading, error wording, sealing), without the server.
        .testTarget(
            name: "MPGSAPITests",
            dependencies: [
                "ApplePayToken",
                "GatewayCore",
                "GatewayHTTP",
                "GooglePayToken",
                "MPGSAPI",
                "TextEdits",
                "WireJSON",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The console's forms, search parsing, templates and refusals, without the server.
        .testTarget(
            name: "MerchantConsoleTests",
            dependencies: [
                "GatewayCore",
                "GatewayHTTP",
                "MerchantConsole",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                .product(name: "NIOPosix", package: "swift-nio"),
                "Gateway",
                "GatewayAdministration",
                "GatewayCertificates",
                "GatewayConfigurationFile",
                "GatewayNotifications",
                "GatewayObservability",
                "GatewayTransport",
                "BlockingWork",
                "GatewayHTTP",
                "GatewayStores",
                "MPGSAPI",
                "RadialAPI",
                "WireJSON",
                "MerchantConsole",
                "ApplePaySandbox",
                "PostgresTestServer",
                "StoreTestSupport",
                "TextEdits",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // Stores written by an earlier release, which the upgrade tests open.
            exclude: ["Fixtures"]
        ),
        // The core's rules without HTTP: unit and property-based tests, and the two stores run
        // against the same random sequences.
        .testTarget(
            name: "GatewayCoreTests",
            dependencies: [
                .product(name: "NIOPosix", package: "swift-nio"),
                "GatewayCore",
                "GatewayStores",
                "PostgresTestServer",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "GatewayCLITests",
            dependencies: [
                "GatewayCLI", "PostgresTestServer", "ApplePaySandbox", "ApplePayToken", "BlockingWork", "GooglePaySandbox", "GooglePayToken",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
