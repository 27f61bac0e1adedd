import GatewayCore
import Testing

@testable import MPGSAPI

/// The catalogue's rules without a server: its line format, which fields an operation takes at a
/// version, and the shapes a request body is read against.
@Suite("Request catalogue rules")
struct RequestCatalogueRulesTests {
    /// A small catalogue in the real one's format: one field renamed at version 54, one only PAY
    /// and AUTHORIZE take, one only CAPTURE takes, a secret.
    static let text = """
        # a comment, and a blank line

        order.amount number:1000000:3 AP
        order.note text:1-10 APC
        shipping.firstName text:1-20 AP max=53
        shipping.contact.firstName text:1-20 AP min=54
        transaction.targetTransactionId text:1-40 C
        sourceOfFunds.provided.card.securityCode digits:3-4 AP secret
        @echo order shipping sourceOfFunds
        @order order
        """

    static func catalogue() throws -> RequestCatalogue { try RequestCatalogue(parsing: text) }

    static func paths(_ catalogue: RequestCatalogue, _ operation: APIOperation, _ version: Int) -> Set<String> {
        Set(catalogue.fields(for: operation, version: version).map(\.path))
    }

    @Test("a field belongs to the operations its letters name and the versions its flags allow")
    func operationsAndVersions() throws {
        let catalogue = try Self.catalogue()
        #expect(
            Self.paths(catalogue, .pay, 53) == [
                "order.amount", "order.note", "shipping.firstName", "sourceOfFunds.provided.card.securityCode",
            ]
        )
        #expect(
            Self.paths(catalogue, .pay, 54) == [
                "order.amount", "order.note", "shipping.contact.firstName", "sourceOfFunds.provided.card.securityCode",
            ]
        )
        #expect(Self.paths(catalogue, .capture, 100) == ["order.note", "transaction.targetTransactionId"])
        #expect(Self.paths(catalogue, .void, 100).isEmpty)
        // Without flags a field spans every supported version.
        let note = try #require(catalogue.fields.first { $0.path == "order.note" })
        #expect(note.versions == APIVersion.supported)
        #expect(try #require(catalogue.fields.first { $0.path == "shipping.firstName" }).versions == APIVersion.supported.lowerBound...53)
    }

    @Test("echo and order prefixes mark fields, never a secret one")
    func echoAndOrder() throws {
        let catalogue = try Self.catalogue()
        let byPath = Dictionary(uniqueKeysWithValues: catalogue.fields.map { ($0.path, $0) })
        #expect(byPath["order.note"]?.isEchoed == true && byPath["order.note"]?.staysOnOrder == true)
        #expect(byPath["shipping.firstName"]?.isEchoed == true && byPath["shipping.firstName"]?.staysOnOrder == false)
        #expect(byPath["transaction.targetTransactionId"]?.isEchoed == false)
        let secret = try #require(byPath["sourceOfFunds.provided.card.securityCode"])
        #expect(secret.isSecret && !secret.isEchoed, "a secret under an echoed prefix is never echoed")
        #expect(RequestCatalogue.path("order.item[0].name", isUnder: ["order.item"]))
        #expect(!RequestCatalogue.path("orderly", isUnder: ["order"]))
    }

    @Test(
        "a malformed line is refused with its number and what is wrong",
        arguments: [
            ("order.amount number:1:2", 1, "expected PATH FORMAT OPERATIONS [FLAGS]"),
            ("order.amount nonsense:1 AP", 1, "unknown format 'nonsense:1'"),
            ("\norder.amount text:1-2 AQ", 2, "unknown operation letter 'Q'"),
            ("order.amount text:1-2 A sometimes", 1, "unknown flag 'sometimes'"),
            ("# x\norder.amount text:1-2 A min=60 max=50", 2, "empty version range"),
        ]
    )
    func syntaxErrors(text: String, line: Int, reason: String) {
        #expect {
            try RequestCatalogue(parsing: text)
        } throws: { error in
            guard let error = error as? RequestCatalogue.SyntaxError else { return false }
            return error.line == line && error.reason == reason
        }
    }

    @Test("a body is read against its operation's fields at its version")
    func shapesByOperationAndVersion() throws {
        let catalogue = try Self.catalogue()
        func refusal(_ body: String, _ operation: APIOperation, _ version: Int) -> GatewayError? {
            do {
                _ = try RequestReader(body: Array(body.utf8), shape: catalogue.shape(for: operation, version: version))
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(#"{"shipping":{"firstName":"Jim"}}"#, .pay, 53) == nil)
        #expect(refusal(#"{"shipping":{"firstName":"Jim"}}"#, .pay, 54)?.explanation == "Unexpected parameter 'shipping.firstName'")
        #expect(refusal(#"{"shipping":{"contact":{"firstName":"Jim"}}}"#, .pay, 54) == nil)
        // A name only another operation takes: accepted empty, unexpected with a value.
        #expect(refusal(#"{"order":{"amount":"1.00"}}"#, .capture, 100)?.field == "order.amount")
        #expect(refusal(#"{"sourceOfFunds":{}}"#, .capture, 100) == nil)
        // A group the operation takes nothing of is named as a whole, as MPGS does.
        #expect(refusal(#"{"transaction":{"targetTransactionId":"1"}}"#, .pay, 100)?.field == "transaction")
        // Formats apply: too long, and the field named.
        let long = refusal(#"{"order":{"note":"eleven chars"}}"#, .capture, 100)
        #expect(long?.field == "order.note" && long?.status == .badRequest)
    }

    @Test("the embedded catalogue: versions within the supported range, every operation served at the latest")
    func embeddedCatalogue() {
        let catalogue = RequestCatalogue.transactionRequest
        for field in catalogue.fields {
            #expect(APIVersion.supported.contains(field.versions.lowerBound), "\(field.path)")
            #expect(APIVersion.supported.contains(field.versions.upperBound), "\(field.path)")
            #expect(!(field.isSecret && field.isEchoed), "\(field.path) is secret and echoed")
        }
        for operation in Set(RequestCatalogue.operationLetters.values) {
            #expect(!catalogue.fields(for: operation, version: APIVersion.supported.upperBound).isEmpty, "\(operation)")
        }
        // A card's security code is never echoed back.
        let securityCode = catalogue.fields.first { $0.path == "sourceOfFunds.provided.card.securityCode" }
        #expect(securityCode?.isSecret == true)
    }
}
