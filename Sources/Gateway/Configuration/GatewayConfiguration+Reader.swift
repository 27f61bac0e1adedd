import Foundation
import GatewayConfigurationFile
import GatewayCore
import GatewayNotifications

extension GatewayConfiguration {
    /// Reads and validates every key; the first problem stops start-up with the key's name.
    init(values: ConfigValues) throws(ConfigurationError) {
        host = try values.string("server.host") ?? host
        port = try values.int("server.port") ?? port
        guard (0...65535).contains(port) else { throw ConfigurationError(key: "server.port", problem: "must be 0-65535") }
        if let modeText = try values.string("mode") {
            guard let parsed = Mode(rawValue: modeText) else {
                throw ConfigurationError(key: "mode", problem: "must be sandbox or production (got \(modeText))")
            }
            mode = parsed
        }
        storeURL = try values.string("store.url") ?? storeURL
        _ = try storeLocation
        storeMaxConnections = try values.int("store.maxConnections") ?? storeMaxConnections
        guard (1...1000).contains(storeMaxConnections) else {
            throw ConfigurationError(key: "store.maxConnections", problem: "must be 1-1000")
        }
        if let seconds = try values.int("store.timeoutSeconds") {
            guard (1...300).contains(seconds) else {
                throw ConfigurationError(key: "store.timeoutSeconds", problem: "must be 1-300")
            }
            storeTimeout = .seconds(seconds)
        }
        // Empty counts as unset: compose passes an unset variable through as "".
        if let keyText = try values.string("store.requestFingerprintKey"), !keyText.isEmpty {
            guard let key = SessionSettings.key(hex: keyText) else {
                throw ConfigurationError(key: "store.requestFingerprintKey", problem: "must be 64 hexadecimal characters")
            }
            requestFingerprintKey = key
        }
        logLevel = try values.string("log.level") ?? logLevel
        let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
        guard levels.contains(logLevel) else {
            throw ConfigurationError(key: "log.level", problem: "must be one of \(levels.joined(separator: ", "))")
        }
        if let formatText = try values.string("log.format") {
            guard let parsed = LogFormat(rawValue: formatText) else {
                throw ConfigurationError(key: "log.format", problem: "must be json or text (got \(formatText))")
            }
            logFormat = parsed
        }
        if let path = try values.string("log.stageTrace"), !path.isEmpty { stageTracePath = path }
        limits = try Self.limits(values)
        tls = try Self.tls(values)
        certificateAuthenticationPort = try Self.certificateAuthenticationPort(values)
        sandboxTLSDirectory = try Self.sandboxTLSDirectory(values)
        if let window = try values.int("applePay.signingTimeWindowSeconds") {
            guard (1...86_400).contains(window) else {
                throw ConfigurationError(key: "applePay.signingTimeWindowSeconds", problem: "must be 1-86400")
            }
            signingTimeWindow = TimeInterval(window)
        }
        if let perSecond = try values.int("applePay.newChainsPerSecond") {
            guard (1...10_000).contains(perSecond) else {
                throw ConfigurationError(key: "applePay.newChainsPerSecond", problem: "must be 1-10000")
            }
            newChainsPerSecond = perSecond
        }
        trustRootPaths = try values.stringArray("applePay.trustRoots") ?? []
        guard mode == .sandbox || trustRootPaths.isEmpty else {
            throw ConfigurationError(
                key: "applePay.trustRoots",
                problem: "is for sandbox mode only: production trusts Apple Root CA - G3 alone"
            )
        }
        sandboxAuthorityDirectory = try values.string("sandbox.authorityDirectory") ?? sandboxAuthorityDirectory
        let merchantIds = try values.stringArray("merchants") ?? []
        guard !merchantIds.isEmpty else {
            throw ConfigurationError(key: "merchants", problem: "must list at least one merchant id")
        }
        merchants = try merchantIds.map { id throws(ConfigurationError) in try Self.merchant(id, values, mode: mode) }
        try readGooglePay(values)
        notifications = try NotificationSettings(values)
        sessions = try SessionSettings(
            lifetimeSeconds: values.int("sessions.lifetimeSeconds"),
            encryptionKey: values.string("sessions.encryptionKey")
        )
    }

    private static func limits(_ values: ConfigValues) throws(ConfigurationError) -> ServerLimits {
        var limits = ServerLimits()
        func read(_ key: String, _ range: ClosedRange<Int>, _ value: inout Int) throws(ConfigurationError) {
            guard let read = try values.int(key) else { return }
            guard range.contains(read) else {
                throw ConfigurationError(key: key, problem: "must be \(range.lowerBound)-\(range.upperBound)")
            }
            value = read
        }
        try read("server.maxBodyBytes", 1024...1_048_576, &limits.maxBodyBytes)
        try read("server.headerTimeoutSeconds", 1...300, &limits.headerTimeoutSeconds)
        try read("server.bodyTimeoutSeconds", 1...300, &limits.bodyTimeoutSeconds)
        try read("server.minBodyBytesPerSecond", 0...1_048_576, &limits.minBodyBytesPerSecond)
        try read("server.idleTimeoutSeconds", 1...3600, &limits.idleTimeoutSeconds)
        try read("server.maxConnections", 1...100_000, &limits.maxConnections)
        try read("server.writeTimeoutSeconds", 1...300, &limits.writeTimeoutSeconds)
        try read("server.maxPipelinedRequests", 1...1024, &limits.maxPipelinedRequests)
        try read("server.shutdownGracePeriodSeconds", 0...300, &limits.shutdownGracePeriodSeconds)
        return limits
    }

    private static func merchant(_ id: String, _ values: ConfigValues, mode: Mode) throws(ConfigurationError) -> MerchantSettings {
        guard (1...40).contains(id.count), id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        else { throw ConfigurationError(key: "merchants", problem: "has an invalid merchant id '\(id)'") }
        let prefix = "merchant.\(id)"
        let passwords = try values.stringArray("\(prefix).apiPasswords") ?? []
        guard (1...2).contains(passwords.count) else {
            throw ConfigurationError(key: "\(prefix).apiPasswords", problem: "must hold one or two passwords")
        }
        for password in passwords where password.count != 32 || !password.allSatisfy(\.isHexDigit) {
            throw ConfigurationError(key: "\(prefix).apiPasswords", problem: "must be 32 hexadecimal characters each")
        }
        var matching = SimulatedAcquirer.AmountMatching.both
        if let text = try values.string("\(prefix).simulator.amountMatching") {
            guard let parsed = SimulatedAcquirer.AmountMatching(rawValue: text) else {
                throw ConfigurationError(
                    key: "\(prefix).simulator.amountMatching",
                    problem: "must be both, minorUnits or wholeAmount"
                )
            }
            matching = parsed
        }
        var testCards = TestCardTable.current
        if let text = try values.string("\(prefix).simulator.testCards") {
            guard let parsed = TestCardTable(rawValue: text) else {
                throw ConfigurationError(key: "\(prefix).simulator.testCards", problem: "must be current or legacy")
            }
            testCards = parsed
        }
        var radialDecrypt = false
        if let text = try values.string("\(prefix).radial.decrypt") {
            guard text == "enabled" || text == "disabled" else {
                throw ConfigurationError(key: "\(prefix).radial.decrypt", problem: "must be enabled or disabled")
            }
            radialDecrypt = text == "enabled"
        }
        var risk = mode == .sandbox
        if let text = try values.string("\(prefix).risk") {
            guard text == "enabled" || text == "disabled" else {
                throw ConfigurationError(key: "\(prefix).risk", problem: "must be enabled or disabled")
            }
            risk = text == "enabled"
        }
        let names = try values.stringArray("\(prefix).applePay.identities") ?? []
        let identities = try names.map { name throws(ConfigurationError) in
            let key = "\(prefix).applePay.\(name)"
            guard let privateKey = try values.string("\(key).privateKey") else {
                throw ConfigurationError(key: "\(key).privateKey", problem: "is missing")
            }
            let identity = IdentitySettings(
                name: name,
                privateKeyPath: privateKey,
                certificatePath: try values.string("\(key).certificate"),
                merchantIdentifier: try values.string("\(key).merchantIdentifier"),
                pkcs12Password: try values.string("\(key).pkcs12Password")
            )
            guard identity.certificatePath != nil || identity.merchantIdentifier != nil || identity.pkcs12Password != nil
            else {
                throw ConfigurationError(
                    key: "\(key).certificate",
                    problem: "or \(key).merchantIdentifier must be given"
                )
            }
            return identity
        }
        return MerchantSettings(
            id: id,
            apiPasswords: passwords,
            identities: identities,
            amountMatching: matching,
            testCards: testCards,
            radialDecrypt: radialDecrypt,
            risk: risk,
            tokens: try tokenRepository(id, values),
            clientCertificates: try clientCertificates(id, values),
            notifications: try merchantNotifications(id, values, mode: mode),
            googlePay: try googlePay(id, values)
        )
    }
}
