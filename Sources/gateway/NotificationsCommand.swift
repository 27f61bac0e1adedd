import ArgumentParser
import Gateway
import GatewayAdministration

/// `gateway notifications`: the webhook outbox, for operators.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "List, show or redeliver webhook notifications in the configured store.",
        subcommands: [List.self, Show.self, Redeliver.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The newest notifications first, one a line.")
        @OptionGroup var options: ConfigurationOptions
        @Option(help: "pending, delivered or failed.") var status: String?
        @Option(help: "How many to list.") var limit: Int = 50

        func run() async throws {
            print(
                try await ConfigurationExit.reporting { try await NotificationsAdministration.list(options.overrides, status: status, limit: limit) }
            )
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "One notification: its transaction, URL, status and attempts.")
        @OptionGroup var options: ConfigurationOptions
        @Argument(help: "The notification id (X-Notification-Id).") var id: Int64

        func run() async throws {
            print(try await ConfigurationExit.reporting { try await NotificationsAdministration.show(options.overrides, id: id) })
        }
    }

    struct Redeliver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue a notification again, with the same id.")
        @OptionGroup var options: ConfigurationOptions
        @Argument(help: "The notification id (X-Notification-Id).") var id: Int64

        func run() async throws {
            print(try await ConfigurationExit.reporting { try await NotificationsAdministration.redeliver(options.overrides, id: id) })
        }
    }
}
