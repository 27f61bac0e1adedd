import ApplePayToken
import BlockingWork
import Foundation
import GatewayCore
import HummingbirdTesting
import Testing
import WireJSON

@testable import Gateway
@testable import MPGSAPI

@Suite("The request catalogue: one source for the runtime check and openapi.yaml")
struct RequestCatalogueTests {
    static let catalogue = RequestCatalogue.transactionRequest
    static let catalogueFile = TestGateway.packageRoot.appendingPathComponent(
        "Sources/MPGSAPI/Routes/Catalogue/transaction-request.catalogue"
    )

    @Test("the embedded catalogue is the data file, and openapi.yaml is generated from it")
    func generatedFilesAreCurrent() throws {
        #expect(try String(contentsOf: Self.catalogueFile, encoding: .utf8) == transactionRequestCatalogueText + "\n")
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "scripts/generate-request-catalogue", "--check"]
        process.currentDirectoryURL = TestGateway.packageRoot
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run scripts/generate-request-catalogue")
    }

    @Test("the fields merchant servers send are catalogued for the operations that take them")
    func namedFields() {
        func takes(_ operation: APIOperation, _ path: String, version: Int = 100) -> Bool {
            Self.catalogue.fields(for: operation, version: version).contains { $0.path == path }
        }
        for operation in [APIOperation.authorize, .pay, .capture, .refund] {
            for path in [
                "billing.address.street", "billing.address.street2", "billing.address.city", "billing.address.stateProvince",
                "billing.address.postcodeZip", "billing.address.country", "customer.firstName", "customer.lastName",
                "customer.email", "customer.phone", "shipping.address.street", "shipping.contact.firstName",
                "order.notificationUrl", "order.description", "order.reference",
            ] {
                #expect(takes(operation, path), "\(operation) \(path)")
            }
        }
        for path in ["order.id", "order.item[n].name", "order.taxAmount", "device.browserDetails.javaEnabled", "authentication.3ds.acsEci"] {
            #expect(takes(.authorize, path) && takes(.pay, path), "\(path)")
        }
        #expect(takes(.pay, "transaction.frequency", version: 53) && !takes(.pay, "transaction.frequency", version: 54))
        #expect(takes(.authorize, "3DSecureId", version: 39) && !takes(.authorize, "3DSecureId", version: 100))
        #expect(takes(.pay, "shipping.firstName", version: 52) && !takes(.pay, "shipping.firstName", version: 100))
        #expect(!takes(.void, "billing.address.street") && takes(.void, "transaction.targetTransactionId"))
    }

    @Test("a session-like body is a subset of the catalogue, chosen by top-level groups")
    func subsetByGroups() throws {
        let shape = Self.catalogue.shape(operations: [.authorize, .pay], version: 100, groups: ["billing", "customer"])
        let good = #"{"billing":{"address":{"city":"Ottawa"}},"customer":{"email":"a@example.com"}}"#
        #expect(throws: Never.self) { try RequestReader(body: Array(good.utf8), shape: shape) }
        #expect { try RequestReader(body: Array(#"{"order":{"amount":"1.00"}}"#.utf8), shape: shape) } throws: { error in
            (error as? GatewayError)?.field == "order"
        }
        #expect { try RequestReader(body: Array(#"{"customer":{"email":"nope"}}"#.utf8), shape: shape) } throws: { error in
            (error as? GatewayError)?.field == "customer.email"
        }
    }

    /// One catalogued field with a value of the wrong format, in a body of an operation that takes it.
    struct WrongFormat: CustomStringConvertible, Sendable {
        let field: CatalogueField
        let operation: APIOperation
        let version: Int
        let value: JSONValue
        /// Where the error must point: array indexes and a chosen member name filled in.
        let errorField: String

        var description: String { "\(field.path) (\(operation.rawValue), version \(version))" }

        var body: [UInt8] {
            var object: JSONValue = value
            for component in field.components.reversed() {
                let name = String(component)
                if name == "{name}" {
                    object = .object(["chosenName": object])
                } else if name.hasSuffix("[n]") {
                    object = .object([String(name.dropLast(3)): .array([object])])
                } else {
                    object = .object([name: object])
                }
            }
            let body = JSONValue.object(["apiOperation": .string(operation.rawValue)]).overlaid(with: object)
            return body.serialized()
        }
    }

    static let wrongFormats: [WrongFormat] = catalogue.fields.compactMap { field in
        guard let value = wrongValue(field.format) else { return nil }
        let operation = APIOperation.allCases.first { field.operations.contains($0) }!
        let version = field.versions.contains(100) ? 100 : field.versions.upperBound
        let errorField = field.path.replacingOccurrences(of: "[n]", with: "[0]").replacingOccurrences(
            of: "{name}",
            with: "chosenName"
        )
        return WrongFormat(field: field, operation: operation, version: version, value: value, errorField: errorField)
    }

    static func wrongValue(_ format: FieldFormat) -> JSONValue? {
        switch format {
        case .characters(_, let range): .string(String(repeating: "a", count: range.upperBound + 1))
        case .digits: .string("12a")
        case .numericText: .string("x1")
        case .month: .string("13")
        case .decimal: .string("1.2.3")
        case .number: .string("abc")
        case .integer: .string("x")
        case .boolean: .string("maybe")
        case .enumeration, .enumerationList: .string("NOT_A_MEMBER")
        case .email: .string("not-an-email")
        case .phone: .string("12345")
        case .url: .string("not a url")
        case .date: .string("2024-13-01")
        case .dateTime: .string("yesterday")
        case .time: .string("25:00Z")
        case .hex: .string("zz")
        case .base64: .string("!!!")
        case .json: .string("{")
        case .regex: .string("!!")
        case .any: nil
        }
    }

    @Test("letter-and-digit rules take exactly CharacterSet's alphanumerics among ASCII, and nothing beyond ASCII")
    func alphanumericRules() {
        for value in UInt32(0)..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let alphanumeric = scalar.isASCII && CharacterSet.alphanumerics.contains(scalar)
            #expect(FieldFormat.CharacterRule.alnum.allows(scalar) == alphanumeric, "U+\(String(value, radix: 16))")
            #expect(FieldFormat.CharacterRule.alnumspace.allows(scalar) == (alphanumeric || scalar == " "))
        }
    }

    @Test("every catalogued field with a wrong format gets its own field-named error")
    func wrongFormatTable() async throws {
        #expect(Self.wrongFormats.count >= 380)
        let gateway = try await TestGateway()
        try await gateway.application.test(.router) { client in
            for (index, wrong) in Self.wrongFormats.enumerated() {
                let exchange = try await client.put(
                    TestGateway.path(order: "format-\(index)", transaction: "1", version: wrong.version),
                    Data(wrong.body)
                )
                #expect(exchange.status == .badRequest, "\(wrong)")
                #expect(exchange.string("error.field") == wrong.errorField, "\(wrong): \(exchange.body)")
                #expect(exchange.string("error.validationType") == "INVALID", "\(wrong)")
                #expect(exchange.string("error.cause") == "INVALID_REQUEST", "\(wrong)")
                if wrong.field.isSecret, case .string(let text) = wrong.value {
                    #expect(exchange.string("error.explanation")?.contains(text) == false, "\(wrong) quoted a secret value")
                }
            }
        }
    }

    static let unknownNames: [(version: Int, body: String, field: String)] = [
        (100, #"{"apiOperation":"PAY","billing":{"address":{"planet":"Mars"}}}"#, "billing.address.planet"),
        (100, #"{"apiOperation":"PAY","shoeSize":"9"}"#, "shoeSize"),
        (100, #"{"apiOperation":"AUTHORIZE","order":{"amountt":"1.00"}}"#, "order.amountt"),
        (100, #"{"apiOperation":"PAY","3DSecureId":"abc"}"#, "3DSecureId"),
        (54, #"{"apiOperation":"PAY","transaction":{"frequency":"SINGLE"}}"#, "transaction.frequency"),
        (100, #"{"apiOperation":"PAY","shipping":{"firstName":"Jim"}}"#, "shipping.firstName"),
        (100, #"{"apiOperation":"CAPTURE","order":{"amount":"1.00"}}"#, "order.amount"),
        (100, #"{"apiOperation":"VOID","billing":{"address":{"city":"Ottawa"}}}"#, "billing"),
        (52, #"{"apiOperation":"PAY","shipping":{"address":{"shipcountry":"CAN"}}}"#, "shipping.address.shipcountry"),
    ]

    @Test("names the reference does not list for the operation and version stay Unexpected parameter")
    func unknownNamesRejected() async throws {
        let gateway = try await TestGateway()
        try await gateway.application.test(.router) { client in
            for (index, entry) in Self.unknownNames.enumerated() {
                let exchange = try await client.put(
                    TestGateway.path(order: "unknown-\(index)", transaction: "1", version: entry.version),
                    Data(entry.body.utf8)
                )
                #expect(exchange.status == .badRequest, "\(entry.body)")
                #expect(exchange.string("error.explanation") == "Unexpected parameter '\(entry.field)'", "\(exchange.body)")
                #expect(exchange.string("error.field") == entry.field)
                #expect(exchange.string("error.validationType") == "UNSUPPORTED")
            }
        }
    }
}
