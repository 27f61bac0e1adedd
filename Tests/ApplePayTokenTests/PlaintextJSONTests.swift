import Foundation
import Testing
import WireJSON

@Suite("The payment data's JSON")
struct PlaintextJSONTests {
    @Test("the wire JSON reader agrees with JSONDecoder on the conformance vectors' plaintexts", arguments: ConformanceVector.withPrivateKey)
    func agreesWithFoundation(vector: ConformanceVector) throws {
        let bytes = try Fixtures.bytes(vector.file("expected"))
        #expect(try JSONValue(parsing: bytes) == JSONDecoder().decode(JSONValue.self, from: Data(bytes)))
    }
}
