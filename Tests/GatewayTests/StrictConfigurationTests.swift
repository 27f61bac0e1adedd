import Foundation
import GatewayConfigurationFile
import Testing

@testable import Gateway
@testable import MPGSAPI

/// A configuration mistake is reported, never ignored: unknown keys by name with the nearest real
/// one, JSON syntax by file, line and column, wrong types by key (decided by the providers'
/// answers, not by their error text).
@Suite("Strict configuration")
struct StrictConfigurationTests {
    static let merchant = #""merchants": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}"#

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strict-\(UUID().uuidString).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func error(_ text: String, environment: [String: String] = [:]) throws -> ConfigurationError {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try GatewayConfiguration.load(file: path, environment: environment)
        } catch {
            return error
        }
        Issue.record("the configuration was accepted")
        throw CancellationError()
    }

    @Test("a misspelled key is named, with where it stands and the key it was probably meant to be")
    func misspelledKey() throws {
        let path = try write("{\(Self.merchant),\n  \"server\": {\n    \"prot\": 9000\n  }\n}")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try GatewayConfiguration.load(file: path, environment: [:])
        } throws: { error in
            let error = error as? ConfigurationError
            return error?.key == "server.prot" && error?.location == "\(path):3:5"
                && error?.description.contains("did you mean 'server.port'?") == true
        }
    }

    @Test("a misspelled required key is named instead of reported missing")
    func misspelledRequiredKey() throws {
        let failure = try error(#"{"merchnats": ["A"], "merchant": {"A": {"apiPasswords": ["0123456789abcdef0123456789abcdef"]}}}"#)
        #expect(failure.key == "merchnats")
        #expect(failure.problem.contains("did you mean 'merchants'?"))
    }

    @Test("keys of a merchant or identity that is not listed are named with the list to add it to")
    func unlistedMerchantAndIdentity() throws {
        let merchant = try error(
            #"{\#(Self.merchant), "merchant.B.apiPasswords": ["0123456789abcdef0123456789abcdef"]}"#
        )
        #expect(merchant.key == "merchant.B.apiPasswords")
        #expect(merchant.problem.contains("merchant B is not listed in merchants"))

        let identity = try error(#"{\#(Self.merchant), "merchant.A.applePay.main.privateKey": "key.pem"}"#)
        #expect(identity.key == "merchant.A.applePay.main.privateKey")
        #expect(identity.problem.contains("identity main is not listed in merchant.A.applePay.identities"))
    }

    @Test(
        "JSON syntax errors name the file, line and column",
        arguments: [
            ("{\n  \"mode\": \"sandbox\",\n}\n", 3, 1, "trailing ','"),
            ("{\n  \"mode\": \"sandbox\"\n  \"store\": {}\n}\n", 3, 3, "expected ',' or '}'"),
            ("{\n  \"mode\": sandbox\n}\n", 2, 11, "expected a value"),
            ("{\n  \"merchants\": [\"A\"\n", 3, 1, "a ']' is missing"),
            ("[1, 2]", 1, 1, "one JSON object"),
            ("{\"mode\": \"a\", \"mode\": \"b\"}", 1, 15, "appears twice"),
        ]
    )
    func syntaxErrors(text: String, line: Int, column: Int, words: String) throws {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try GatewayConfiguration.load(file: path, environment: [:])
        } throws: { error in
            let error = error as? ConfigurationError
            return error?.location == "\(path):\(line):\(column)" && error?.problem.contains(words) == true
        }
    }

    @Test("a missing file says so, with the directory a relative path is read from")
    func missingFile() throws {
        #expect {
            try GatewayConfiguration.load(file: "no-such-gateway.json", environment: [:])
        } throws: { error in
            let error = error as? ConfigurationError
            return error?.location == "no-such-gateway.json" && error?.problem.contains("does not exist") == true
        }
    }

    @Test("a value of the wrong type is named by key, from the file or the environment")
    func wrongTypes() throws {
        let fromFile = try error(#"{\#(Self.merchant), "server": {"port": "9000"}}"#)
        #expect(fromFile.key == "server.port")
        #expect(fromFile.problem.contains("must be an integer"))

        let fromEnvironment = try error(#"{\#(Self.merchant)}"#, environment: ["GATEWAY_SERVER_PORT": "ninety"])
        #expect(fromEnvironment.key == "server.port")
        #expect(fromEnvironment.problem.contains("must be an integer"))

        // The source is named as people name it: the variable, the file; never a provider type.
        #expect(fromEnvironment.problem.contains("(in environment variable GATEWAY_SERVER_PORT)"), "\(fromEnvironment)")
        #expect(fromFile.problem.contains(".json)"), "\(fromFile)")
        for error in [fromFile, fromEnvironment] {
            #expect(!error.description.contains("Provider"), "\(error)")
        }

        let list = try error(#"{"merchants": "A"}"#)
        #expect(list.key == "merchants")
        #expect(list.problem.contains("must be a list of strings"))
    }

    @Test("a GATEWAY_ variable for a merchant not configured, or for no key at all, is named with the one meant")
    func unknownVariables() throws {
        let production = #"{\#(Self.merchant)}"#
        let otherMerchant = try error(production, environment: ["GATEWAY_MERCHANT_YOUR_MERCHANT_ID_API_PASSWORDS": "x"])
        #expect(otherMerchant.location == "environment variable GATEWAY_MERCHANT_YOUR_MERCHANT_ID_API_PASSWORDS")
        #expect(otherMerchant.problem.contains("names merchant YOUR_MERCHANT_ID, which is not in merchants (A)"), "\(otherMerchant)")
        #expect(otherMerchant.problem.contains("did you mean GATEWAY_MERCHANT_A_API_PASSWORDS?"), "\(otherMerchant)")

        let typo = try error(production, environment: ["GATEWAY_SERVER_PROT": "9000"])
        #expect(typo.description == "environment variable GATEWAY_SERVER_PROT: is not a configuration variable; did you mean GATEWAY_SERVER_PORT?")
        let nothing = try error(production, environment: ["GATEWAY_COLOUR": "blue"])
        #expect(nothing.problem.contains("is not a configuration variable"))

        // Every real key is accepted from the environment whatever the mode, and so is the guide's client variable.
        let path = try write(production)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let accepted = try GatewayConfiguration.load(
            file: path,
            environment: [
                "GATEWAY_URL": "http://127.0.0.1:8080", "GATEWAY_SERVER_MAX_CONNECTIONS": "64",
                "GATEWAY_MERCHANT_A_API_PASSWORDS": "ffeeddccbbaa99887766554433221100",
                "GATEWAY_SANDBOX_AUTHORITY_DIRECTORY": "/tmp/authority", "GATEWAY_LOG_LEVEL": "debug", "PATH": "/usr/bin",
            ]
        )
        #expect(accepted.limits.maxConnections == 64)
    }

    @Test("a BOM, a comment, a directory and a relative key path are each explained")
    func firstHourMistakes() throws {
        let bom = try error("\u{FEFF}{\(Self.merchant)}")
        #expect(bom.problem.contains("byte order mark"), "\(bom)")
        let comment = try error("{\n  // the merchants\n  \(Self.merchant)}")
        #expect(comment.location?.hasSuffix(":2:3") == true, "\(comment)")
        #expect(comment.problem == "JSON has no comments: remove the comment that starts here")
        let block = try error("{\(Self.merchant), /* no */ \"mode\": \"sandbox\"}")
        #expect(block.problem.contains("JSON has no comments"))

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try GatewayConfiguration.load(file: directory.path, environment: [:])
        } throws: { error in
            (error as? ConfigurationError)?.problem == "is a directory; --config takes a JSON file"
        }

        #expect {
            try MerchantLoader.read("no-such-dir/ec.pem", key: "merchant.A.applePay.ec.privateKey")
        } throws: { error in
            "\(error)".contains("names no-such-dir/ec.pem, which does not exist (relative paths are read from the working directory, ")
        }
    }

    @Test("environment names follow swift-configuration's spelling of each key")
    func variableSpelling() {
        #expect(EnvironmentNames.variable(for: "server.maxConnections") == "GATEWAY_SERVER_MAX_CONNECTIONS")
        #expect(
            EnvironmentNames.variable(for: "merchant.SHOP1.applePay.previous.pkcs12Password")
                == "GATEWAY_MERCHANT_SHOP1_APPLE_PAY_PREVIOUS_PKCS12PASSWORD"
        )
        #expect(EnvironmentNames.variable(for: "merchant.shop-2.apiPasswords") == "GATEWAY_MERCHANT_SHOP_2_API_PASSWORDS")
    }

    @Test("a key that is absent takes its default; null means absent; dotted and nested keys are the same")
    func absentAndDotted() throws {
        let path = try write(#"{\#(Self.merchant), "server.host": "0.0.0.0", "server": {"port": null}, "log": {"level": "debug"}}"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try GatewayConfiguration.load(file: path, environment: [:])
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 8080)
        #expect(configuration.logLevel == "debug")
    }

    @Test("the nearest key is found within a small edit distance, and only then")
    func nearest() {
        let keys: Set = ["server.port", "server.host", "store.url"]
        #expect(UnknownKeys.nearest("server.prot", among: keys) == "server.port")
        #expect(UnknownKeys.nearest("Store.URL", among: keys) == "store.url")
        #expect(UnknownKeys.nearest("telemetry.endpoint", among: keys) == nil)
        #expect(UnknownKeys.distance("kitten", "sitting") == 3)
    }
}
