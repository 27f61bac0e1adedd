// Mutation fuzzing of the parsers of outside input that token-fuzz does not cover: the Radial XML
// reader with the request decoders on top, the console's form and multipart readers, the wire
// JSON reader with the MPGS transaction request's reading, and the HTTP/1.1 pipeline's head
// parsing. Seeded with the repository's real requests and run for a bounded time (CI: .ci/run).
//
//   request-fuzz [--root DIR] [--seconds N] [--seed N] [--input-seconds N] [--only NAME] [--artifacts DIR]
//
// An in-process driver, not coverage-guided: byte mutations and each parser's own tokens (`<`,
// `]]>`, `&#`, `\u`, boundaries, CRLF, huge numbers, deep nesting), stacked one to four deep; the
// time is shared equally between the parsers. A finding (a crash, an input that runs past
// --input-seconds, or a broken invariant; each target says which it checks) prints the input as
// hex (its whole bytes go to DIR/<parser>.finding with --artifacts) and exits 1. The last line is `request-fuzz: executions=N findings=M <parser>=N ...`.

import Foundation
import FuzzingSupport

struct Options {
    var root = "."
    var seconds = 60.0
    var seed: UInt64 = 2026
    var inputSeconds = 2.0
    var only: String?
    var artifacts: String?

    init(_ arguments: [String]) {
        var iterator = arguments.dropFirst().makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--root": root = iterator.next() ?? root
            case "--seconds": seconds = Double(iterator.next() ?? "") ?? seconds
            case "--seed": seed = UInt64(iterator.next() ?? "") ?? seed
            case "--input-seconds": inputSeconds = Double(iterator.next() ?? "") ?? inputSeconds
            case "--only": only = iterator.next()
            case "--artifacts": artifacts = iterator.next()
            default: Self.usage()
            }
        }
    }

    static func usage() -> Never {
        FileHandle.standardError.write(
            Data("usage: request-fuzz [--root DIR] [--seconds N] [--seed N] [--input-seconds N] [--only NAME] [--artifacts DIR]\n".utf8)
        )
        exit(64)
    }
}

let options = Options(CommandLine.arguments)
let seeds = Seeds(root: URL(fileURLWithPath: options.root))
let jsonSeeds = try seeds.transactionBodies() + seeds.tokens()
var targets = [
    Target.radialXML(seeds: try seeds.radialDocuments()),
    Target.consoleForm(seeds: seeds.consoleForms()),
    Target.consoleMultipart(seeds: try seeds.multipartForms()),
    Target.wireJSON(seeds: jsonSeeds),
    Target.http1(seeds: seeds.httpRequests(jsonBody: jsonSeeds.first ?? [])),
]
if let only = options.only { targets.removeAll { $0.name != only } }
guard !targets.isEmpty, targets.allSatisfy({ !$0.seeds.isEmpty }) else {
    print("request-fuzz: no seeds (run from the package's folder or pass --root)")
    exit(1)
}

installCrashHandlers()
startHangWatchdog(bound: options.inputSeconds)
var mutator = Mutator(random: SplitMix64(state: options.seed))
var findings = 0
var rates: [String] = []

for index in targets.indices {
    let target = targets[index]
    let start = Date()
    let deadline = start.addingTimeInterval(options.seconds / Double(targets.count))
    // The seeds as they are first: a finding there is no mutation's doing.
    var queue = target.seeds
    while Date() < deadline, findings == 0 {
        for _ in 0..<32 {
            let input =
                queue.popLast()
                ?? mutator.mutate(
                    target.seeds[Int.random(in: 0..<target.seeds.count, using: &mutator.random)],
                    splicing: target.seeds[Int.random(in: 0..<target.seeds.count, using: &mutator.random)],
                    tokens: target.tokens
                )
            CurrentInput.begin(input, target: target.name)
            let broken = target.run(input)
            CurrentInput.end()
            targets[index].executions += 1
            if let broken {
                findings += 1
                CurrentInput.print("invariant")
                print("  \(broken)")
                if let folder = options.artifacts {
                    _ = FileManager.default.createFile(atPath: "\(folder)/\(target.name).finding", contents: Data(input))
                }
                break
            }
        }
    }
    let elapsed = Date().timeIntervalSince(start)
    rates.append("\(target.name)=\(Int(Double(targets[index].executions) / max(elapsed, 0.001)))/s")
}

print("request-fuzz: rates \(rates.joined(separator: " "))")
print(
    "request-fuzz: executions=\(targets.reduce(0) { $0 + $1.executions }) findings=\(findings) "
        + targets.map { "\($0.name)=\($0.executions)" }.joined(separator: " ")
        + " seconds=\(Int(options.seconds)) seed=\(options.seed)"
)
exit(findings == 0 ? 0 : 1)
