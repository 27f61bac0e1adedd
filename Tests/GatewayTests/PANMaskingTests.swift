import Foundation
import GatewayCore
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import Gateway
@testable import GatewayStores
@testable import MPGSAPI

/// A PAN split by `.`, `_`, `~`, `--`, `+` or percent-encoded spaces in an order id, a
/// transaction id, the merchant path segment or X-Request-ID used to be logged in clear, and
/// one typed into a free-text field was stored as sent.
@Suite("Card numbers in ids, headers and free text are masked")
struct PANMaskingTests {
    static let separators = [".", "_", "~", "--", "+", "%20"]

    static func split(_ pan: String, by separator: String) -> String {
        stride(from: 0, to: pan.count, by: 4).map { offset in
            String(pan.dropFirst(offset).prefix(4))
        }.joined(separator: separator)
    }

    @Test("over TCP: no PAN in the log in any spelling, and none in what is stored")
    func maskedEverywhere() async throws {
        let gateway = try await TestGateway()
        let logs = LogCollector()
        let pan = "4111111111111111"
        try await gateway.application(logger: logs.logger).test(.live) { client in
            for (index, separator) in Self.separators.enumerated() {
                let spelled = Self.split(pan, by: separator)
                var body =
                    try JSONSerialization.jsonObject(
                        with: TestGateway.cardBody(operation: "AUTHORIZE", amount: "1.00")
                    ) as! [String: Any]
                var order = body["order"] as! [String: Any]
                order["description"] = "paid with \(spelled)"
                body["order"] = order
                var headers: HTTPFields = [.contentType: "application/json", .authorization: TestGateway.authorization()]
                headers[HTTPField.Name("X-Request-ID")!] = separator == "%20" ? "r-\(index)" : "r\(Self.split(pan, by: "."))"
                let path = TestGateway.path(order: "o\(spelled)", transaction: "t\(spelled)-\(index)")
                let status = try await client.execute(
                    uri: path,
                    method: .put,
                    headers: headers,
                    body: ByteBuffer(bytes: Array(TestGateway.json(body)))
                ) { $0.status }
                #expect(status == .created, "\(separator)")
            }
            // A path segment the router does not match is logged too.
            _ = try await client.send("/api/rest/version/100/merchant/M\(Self.split(pan, by: "_"))/order/x", method: .get)
        }
        let logged = logs.all.joined(separator: "\n")
        for separator in Self.separators + [""] {
            #expect(!logged.contains(Self.split(pan, by: separator)), "\(separator.isEmpty ? "bare" : separator) spelling logged")
            #expect(!logged.contains(Self.split(pan, by: separator.removingPercentEncoding ?? separator)))
        }
        #expect(logged.contains("xx"))

        // What the store holds: the description with the PAN masked, in every spelling (the ids
        // are the merchant's identifiers and are kept as sent).
        guard case .sqlite(let path) = try gateway.services.configuration.storeLocation else { return }
        let stored = try SQLiteConnection(path: path).query("SELECT response_body FROM transactions")
            .compactMap { $0.first?.blob }.map { String(decoding: $0, as: UTF8.self) }.joined()
        for separator in Self.separators {
            let clear = stored.contains("paid with \(Self.split(pan, by: separator))")
            #expect(!clear, "a description with the \(separator) spelling was stored in clear")
            #expect(stored.contains("paid with 4111\(separator)11xx"), "\(separator)")
        }
    }
}
