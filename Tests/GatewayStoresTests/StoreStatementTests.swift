import Foundation
import Testing

@testable import GatewayCore
@testable import GatewayStores

/// The statements both stores run are written once with `?` placeholders: PostgreSQL's numbered
/// ones are derived, and every statement has as many values as placeholders.
@Suite("Statements shared by both stores")
struct StoreStatementTests {
    @Test("PostgreSQL gets $1, $2, ... in place of each ?")
    func numberedPlaceholders() {
        let statement = StoreStatement("UPDATE t SET a = ?, b = ? WHERE c = ? RETURNING 1", [.text("x"), .integer(2), .null])
        #expect(statement.postgresSQL == "UPDATE t SET a = $1, b = $2 WHERE c = $3 RETURNING 1")
        #expect(StoreStatement.placeholders(3) == "?, ?, ?")
    }

    @Test("every token and authentication statement binds one value per placeholder")
    func valuesMatchPlaceholders() {
        let token = StoredToken(
            token: "9999990000000001",
            merchantId: "M",
            status: .valid,
            sealedCard: [1, 2, 3],
            createdAt: Date(milliseconds: 1),
            updatedAt: Date(milliseconds: 2)
        )
        let authentication = AuthenticationStoreTests.authentication(order: "o")
        let statements = [
            TokenStatements.insert(token), TokenStatements.select(merchantId: "M", token: token.token),
            TokenStatements.replace(token), TokenStatements.delete(merchantId: "M", token: token.token),
            AuthenticationStatements.select(merchantId: "M", orderId: "o", transactionId: "t"),
            AuthenticationStatements.select(challengeId: "c"), AuthenticationStatements.select(merchantId: "M", orderId: "o"),
            AuthenticationStatements.insert(authentication), AuthenticationStatements.replace(authentication, expectedRevision: 1),
        ]
        for statement in statements {
            #expect(statement.sql.filter { $0 == "?" }.count == statement.values.count, "\(statement.sql)")
        }
    }
}
