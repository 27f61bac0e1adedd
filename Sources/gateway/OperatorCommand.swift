import ArgumentParser
import Foundation
import Gateway
import GatewayAdministration

/// `gateway operator add|remove|passwd`: Merchant Administration operators. Passwords are read
/// from standard input (one line), never from an argument, so they stay out of shell history
/// and the process list.
struct OperatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "operator",
        abstract: "Add, remove or change the password of a Merchant Administration operator.",
        subcommands: [Add.self, Remove.self, Passwd.self]
    )

    struct Common: ParsableArguments {
        @Option(name: .long, help: "A JSON configuration file (default: the embedded sandbox configuration).")
        var config: String?

        @Option(name: .long, help: "The merchant id the operator works for.")
        var merchant: String

        @Option(name: .long, help: "The operator's login name.")
        var name: String
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an operator; the password is read from standard input."
        )
        @OptionGroup var common: Common

        @Option(name: .long, help: "admin (acts on orders) or viewer (looks only).")
        var role: OperatorAdministration.Role

        func run() async throws {
            let password = try OperatorCommand.readPassword()
            try await OperatorCommand.reporting {
                try await OperatorAdministration.add(
                    GatewayService.Overrides(configFile: common.config),
                    merchantId: common.merchant,
                    name: common.name,
                    role: role,
                    password: password
                )
            }
            print("operator \(common.name) added to \(common.merchant) as \(role.rawValue)")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an operator and end their sessions.")
        @OptionGroup var common: Common

        func run() async throws {
            try await OperatorCommand.reporting {
                try await OperatorAdministration.remove(
                    GatewayService.Overrides(configFile: common.config),
                    merchantId: common.merchant,
                    name: common.name
                )
            }
            print("operator \(common.name) removed from \(common.merchant)")
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set an operator's password (read from standard input), clear their lockout and end their sessions."
        )
        @OptionGroup var common: Common

        func run() async throws {
            let password = try OperatorCommand.readPassword()
            try await OperatorCommand.reporting {
                try await OperatorAdministration.changePassword(
                    GatewayService.Overrides(configFile: common.config),
                    merchantId: common.merchant,
                    name: common.name,
                    password: password
                )
            }
            print("password of \(common.name) at \(common.merchant) changed")
        }
    }

    /// One line of standard input, without its line ending.
    static func readPassword() throws -> String {
        guard let line = readLine(strippingNewline: true) else {
            // Said plainly, with the way to give it, rather than as a usage error.
            FileHandle.standardError.write(
                Data("error: the password is read from standard input, which was empty: printf '%s\\n' \"$PASSWORD\" | gateway operator ...\n".utf8)
            )
            throw ExitCode(64)
        }
        return line
    }

    static func reporting(_ body: () async throws -> Void) async throws {
        try await ConfigurationExit.reporting {
            do {
                try await body()
            } catch let refusal as OperatorAdministration.Refusal {
                FileHandle.standardError.write(Data("error: \(refusal)\n".utf8))
                throw ExitCode.failure
            }
        }
    }
}

extension OperatorAdministration.Role: ExpressibleByArgument {}
