import Foundation
import Logging
import Testing

@testable import Gateway

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
}
