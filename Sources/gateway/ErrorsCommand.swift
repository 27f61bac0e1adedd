import ArgumentParser
import Gateway

/// `gateway errors`: the reference page of every error, from the code that answers them.
struct ErrorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors",
        abstract: "Print the reference page of every error the gateway answers (Markdown; Deploy/ERRORS.md)."
    )

    func run() {
        print(GatewayErrorReference.markdown, terminator: "")
    }
}
