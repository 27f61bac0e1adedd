import Foundation
import Logging
import Testing

@testable import Gateway
@testable import GatewayObservability
@testable import MPGSAPI

@Suite("JSON log lines")
struct JSONLogHandlerTests {
    @Test("one parseable object per line, metadata at the top level, hostile text escaped")
    func escaping() throws {
        let logs = LogCollector()
        logs.logger.info(
            "quote \" backslash \\ newline \n tab \t bell \u{07}",
            metadata: ["orderId": "a\"b\nc", "level": "overridden?", "nested": ["k": "v"]]
        )
        let line = try #require(logs.all.first)
        #expect(line.hasSuffix("}\n"))
        #expect(!line.dropLast().contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "quote \" backslash \\ newline \n tab \t bell \u{07}")
        #expect(object["orderId"] as? String == "a\"b\nc")
        #expect(object["level"] as? String == "info", "metadata cannot overwrite the line's own fields")
        #expect(object["label"] as? String == "test")
        #expect((object["timestamp"] as? String)?.hasSuffix("Z") == true)
    }

    @Test("runs of 13 or more digits are masked to six and four; shorter numbers are left alone")
    func cardNumbersMasked() {
        #expect(JSONLogHandler.maskCardNumbers("card 5123450000000008 ok") == "card 512345xxxxxx0008 ok")
        #expect(JSONLogHandler.maskCardNumbers("pan=4111111111111111111,") == "pan=411111xxxxxxxxx1111,")
        #expect(JSONLogHandler.maskCardNumbers("took 123456789012 ms, 5.5 s") == "took 123456789012 ms, 5.5 s")
        let logs = LogCollector()
        logs.logger.info("card 5204245250001488", metadata: ["echo": "5204245250001488"])
        #expect(logs.all.first?.contains("5204245250001488") == false)
        #expect(logs.all.first?.contains("520424xxxxxx1488") == true)
    }

    @Test(
        "card numbers written in groups with any short non-alphanumeric separators are masked when they pass the Luhn check",
        arguments: [
            ("order 5123-4500-0000-0008 done", "order 5123-45xx-xxxx-0008 done"),
            ("4111-1111-1111-1111", "4111-11xx-xxxx-1111"),
            ("id=4012 8888 8888 1881;", "id=4012 88xx xxxx 1881;"),
            ("order-4111-1111-1111-1111-2", "order-4111-11xx-xxxx-1111-2"),
            ("7-4111-1111-1111-1111", "7-4111-11xx-xxxx-1111"),
            ("37828-224631-0005", "37828-2xxxxx-0005"),
            // Not card numbers: the Luhn check fails, or there are too few digits.
            ("5123-4500-0000-0009", "5123-4500-0000-0009"),
            ("at 2026-11-22 12:06", "at 2026-11-22 12:06"),
            ("call +1 415-555-0100", "call +1 415-555-0100"),
            // Separators of one to three non-alphanumeric characters, percent-escapes, 12 digits.
            ("4111--1111-1111-1111", "4111--11xx-xxxx-1111"),
            ("o4111.1111.1111.1111", "o4111.11xx.xxxx.1111"),
            ("4111_1111_1111_1111", "4111_11xx_xxxx_1111"),
            ("4111~1111~1111~1111", "4111~11xx~xxxx~1111"),
            ("4111+1111+1111+1111", "4111+11xx+xxxx+1111"),
            ("4111%201111%201111%201111", "4111%2011xx%20xxxx%201111"),
            ("4111.1111-1111_1111", "4111.11xx-xxxx_1111"),
            ("card 500000000009.", "card 500000xx0009."),
            ("5000.0000.0009", "5000.00xx.0009"),
            // A number with a decimal point (an epoch time, an amount) is a number, not a card (issue 62).
            ("retryAt=1795882345.1231824", "retryAt=1795882345.1231824"),
            ("amount 5000000.00009", "amount 5000000.00009"),
            // A letter between groups ends the number; so does a four-character separator.
            ("4111a1111-1111-1111", "4111a1111-1111-1111"),
            ("4111----1111-1111-1111", "4111----1111-1111-1111"),
            // A UUID stays whole, though its leading groups pass the check; a card beside it does not.
            ("/tmp/https-96144210-4145-47C2-9692-B9981396A5E0/tls", "/tmp/https-96144210-4145-47C2-9692-B9981396A5E0/tls"),
            ("96144210-4145-47C2-9692-B9981396A5E0 4111-1111-1111-1111", "96144210-4145-47C2-9692-B9981396A5E0 4111-11xx-xxxx-1111"),
            ("4111-1111-1111-1111-96144210-4145-47C2-9692-B9981396A5E0", "4111-11xx-xxxx-1111-96144210-4145-47C2-9692-B9981396A5E0"),
            // Not a UUID (a group too long), so the grouped digits are masked as before.
            ("96144210-4145-47C2-9692-B9981396A5E01", "961442xx-xx45-47C2-9692-B9981396A5E01"),
        ]
    )
    func groupedCardNumbers(text: String, logged: String) {
        #expect(JSONLogHandler.maskCardNumbers(text) == logged)
    }

    @Test("the text format masks card numbers as the JSON format does")
    func textFormatMasks() {
        let lines = LockedLines()
        var handler = RedactingLogHandler(wrapped: CapturingHandler(lines: lines))
        handler.logLevel = .info
        handler[metadataKey: "orderId"] = "5123-4500-0000-0008"
        let logger = Logger(label: "text") { _ in handler }
        logger.info("card 5204245250001488", metadata: ["requestId": "4012-8888-8888-1881"])
        let line = lines.all.joined()
        #expect(!line.contains("5204245250001488") && !line.contains("5123-4500-0000-0008") && !line.contains("4012-8888-8888-1881"))
        #expect(line.contains("520424xxxxxx1488") && line.contains("5123-45xx-xxxx-0008") && line.contains("4012-88xx-xxxx-1881"))
    }
}

/// Collects what a handler was given, message and metadata, as text.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

struct CapturingHandler: LogHandler {
    let lines: LockedLines
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.add("\(event.message) \(fields.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " "))")
    }
}
