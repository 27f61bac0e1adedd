import Foundation
import Testing

@testable import Gateway

/// The page `gateway errors` prints: both front ends' errors, so it is the server's to check (the
/// MPGS catalogue's own rules are in MPGSAPITests).
@Suite("Error reference page")
struct ErrorsPageTests {
    @Test("Deploy/ERRORS.md is the page the code generates (regenerate: swift run gateway errors > Deploy/ERRORS.md)")
    func pageInStep() throws {
        let page = try String(contentsOf: TestGateway.packageRoot.appendingPathComponent("Deploy/ERRORS.md"), encoding: .utf8)
        #expect(page == GatewayErrorReference.markdown)
    }
}
