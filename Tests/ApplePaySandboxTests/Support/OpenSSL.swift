import BlockingWork
import Foundation

/// Runs the `openssl` command: an implementation independent of swift-crypto and the token library.
enum OpenSSL {
    struct Outcome {
        var status: Int32
        var output: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // Read before waiting, so a chatty openssl cannot block on a full pipe.
        let text = String(decoding: output.fileHandleForReading.readToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: text)
    }
}
