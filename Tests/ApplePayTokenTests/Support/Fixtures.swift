import Foundation

/// Paths the tests read from: the repository root and its `Tests/ApplePayTokenTests/Fixtures/conformance` fixtures.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `APPLEPAY_CONFORMANCE_DIR` overrides the default `Tests/ApplePayTokenTests/Fixtures/conformance`.
    static let conformanceDirectory: URL = {
        if let path = ProcessInfo.processInfo.environment["APPLEPAY_CONFORMANCE_DIR"] {
            return URL(fileURLWithPath: path)
        }
        return packageRoot.appendingPathComponent("Tests/ApplePayTokenTests/Fixtures/conformance")
    }()

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    static func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    static func json(_ url: URL) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url))
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}
