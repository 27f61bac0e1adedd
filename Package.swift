// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "applepay-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ApplePayToken", targets: ["ApplePayToken"]),
        .executable(name: "gateway", targets: ["GatewayCLI"]),
        .executable(name: "token-bench", targets: ["TokenBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "4.5.2"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // The system libcrypto: RSA-OAEP at OpenSSL's speed, and PKCS#12 with legacy encryption.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Verifies and decrypts Apple Pay payment tokens. No HTTP, no database.
        .target(
            name: "ApplePayToken",
            dependencies: [
                "COpenSSL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        // The `gateway` command: subcommands grow with the service.
        .executableTarget(
            name: "GatewayCLI",
            dependencies: [
                "ApplePayToken",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/gateway"
        ),
        // Tokens per second against the OpenSSL limit; run through scripts/bench-token.
        .executableTarget(
            name: "TokenBenchmark",
            dependencies: [
                "ApplePayToken",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ApplePayTokenTests",
            dependencies: ["ApplePayToken"],
            exclude: ["Minting"]
        ),
        .testTarget(
            name: "GatewayCLITests",
            dependencies: ["GatewayCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
