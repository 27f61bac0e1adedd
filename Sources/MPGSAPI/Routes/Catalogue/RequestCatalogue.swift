import GatewayCore

/// One field of the request catalogue: where it is, its format, which operations and API
/// versions take it.
struct CatalogueField: Sendable, Hashable {
    /// Dotted, with `[n]` for arrays of objects and `{name}` for member names the merchant chooses.
    let path: String
    let format: FieldFormat
    let operations: Set<APIOperation>
    let versions: ClosedRange<Int>
    /// Card data and cryptograms: never echoed, never quoted in an error.
    let isSecret: Bool
    /// Returned in the response as sent (under an `@echo` prefix, and not secret).
    var isEchoed = false
    /// Echoed and describing the order, so later responses repeat it (under an `@order` prefix).
    var staysOnOrder = false

    var components: [Substring] { path.split(separator: ".") }
}

/// The MPGS transaction request's fields, read from `transaction-request.catalogue` (embedded in
/// `RequestCatalogue+Data.swift` by `scripts/generate-request-catalogue`, which also writes
/// openapi.yaml's TransactionRequest from it). Request checking, the response echo and, for other
/// bodies such as a session's, subsets of it all come from here.
struct RequestCatalogue: Sendable {
    let fields: [CatalogueField]
    /// Fields under these prefixes are returned in the response as sent.
    let echoPrefixes: [String]
    /// Of the echoed ones, those that describe the order and stay on it.
    let orderPrefixes: [String]
    /// Every catalogued field, whatever the operation or version.
    let everyField: FieldShape
    private let bandStarts: [Int]
    private let shapes: [ShapeKey: FieldShape]

    static let operationLetters: [Character: APIOperation] = [
        "A": .authorize, "P": .pay, "V": .verify, "C": .capture, "R": .refund, "X": .void,
        // Issue 30.
        "U": .updateAuthorization,
        // 3-D Secure.
        "I": .authentication(.initiateAuthentication), "Y": .authentication(.authenticatePayer),
        // Issue 64.
        "B": .browserPayment(.initiate), "K": .browserPayment(.confirm),
        "W": .browserPayment(.update),
    ]

    /// The transaction request, from the embedded catalogue. The catalogue is checked by a test,
    /// so a failure here is a build that skipped the generator.
    static let transactionRequest: RequestCatalogue = {
        do {
            return try RequestCatalogue(parsing: transactionRequestCatalogueText)
        } catch {
            preconditionFailure("transaction-request.catalogue: \(error)")
        }
    }()

    struct SyntaxError: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// `operationLetters` maps the catalogue's operations column: the transaction request's by
    /// default; another catalogue in the same format (the checkout session's) may name its own.
    init(parsing text: String, operationLetters letters: [Character: APIOperation] = operationLetters) throws(SyntaxError) {
        var fields: [CatalogueField] = []
        var echo: [String] = []
        var order: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = rawLine.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            switch first {
            case "@echo": echo += words.dropFirst()
            case "@order": order += words.dropFirst()
            default: fields.append(try Self.field(words, line: index + 1, letters: letters))
            }
        }
        // Decided once here, not per request: the echo projection asks for every field it meets.
        for index in fields.indices where !fields[index].isSecret {
            fields[index].isEchoed = Self.path(fields[index].path, isUnder: echo)
            fields[index].staysOnOrder = Self.path(fields[index].path, isUnder: order)
        }
        self.fields = fields
        self.echoPrefixes = echo
        self.orderPrefixes = order
        everyField = Self.build(fields, elsewhere: [])
        bandStarts = Self.bandStarts(fields)
        shapes = Self.shapes(fields, bandStarts: bandStarts)
    }

    private static func field(_ words: [String], line: Int, letters: [Character: APIOperation]) throws(SyntaxError) -> CatalogueField {
        guard words.count >= 3 else { throw SyntaxError(line: line, reason: "expected PATH FORMAT OPERATIONS [FLAGS]") }
        guard let format = FieldFormat(spelling: words[1]) else {
            throw SyntaxError(line: line, reason: "unknown format '\(words[1])'")
        }
        var operations: Set<APIOperation> = []
        for letter in words[2] {
            guard let operation = letters[letter] else {
                throw SyntaxError(line: line, reason: "unknown operation letter '\(letter)'")
            }
            operations.insert(operation)
        }
        var secret = false
        var lowest = APIVersion.supported.lowerBound
        var highest = APIVersion.supported.upperBound
        for flag in words.dropFirst(3) {
            if flag == "secret" {
                secret = true
            } else if flag.hasPrefix("min="), let version = Int(flag.dropFirst(4)) {
                lowest = version
            } else if flag.hasPrefix("max="), let version = Int(flag.dropFirst(4)) {
                highest = version
            } else {
                throw SyntaxError(line: line, reason: "unknown flag '\(flag)'")
            }
        }
        guard lowest <= highest else { throw SyntaxError(line: line, reason: "empty version range") }
        return CatalogueField(path: words[0], format: format, operations: operations, versions: lowest...highest, isSecret: secret)
    }

    /// The fields `operation` takes at `version`.
    func fields(for operation: APIOperation, version: Int) -> [CatalogueField] {
        fields.filter { $0.operations.contains(operation) && $0.versions.contains(version) }
    }

    /// The request shape of one operation at one API version. Names only other operations take
    /// are accepted when they carry nothing (clients send empty `order` or `sourceOfFunds` objects
    /// on follow-ons); with a value they are unexpected, as every uncatalogued name is.
    func shape(for operation: APIOperation, version: Int) -> FieldShape {
        shapes[ShapeKey(operation: operation, band: band(of: version))] ?? .object([:])
    }

    /// A body holding a subset of the request: the fields of `operations` at `version` whose
    /// first component is one of `groups` (e.g. a session's "the fields a session may hold").
    func shape(operations: Set<APIOperation>, version: Int, groups: Set<String>) -> FieldShape {
        Self.build(
            fields.filter {
                !$0.operations.isDisjoint(with: operations) && $0.versions.contains(version)
                    && groups.contains(String($0.components[0]))
            },
            elsewhere: []
        )
    }

    /// Whether `path` (dotted, array indexes as `[n]`) is under one of `prefixes`.
    static func path(_ path: String, isUnder prefixes: [String]) -> Bool {
        prefixes.contains { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
    }

    private struct ShapeKey: Hashable {
        let operation: APIOperation
        let band: Int
    }

    private func band(of version: Int) -> Int {
        bandStarts.lastIndex { $0 <= version } ?? 0
    }

    /// Versions in which the same fields apply share a band: the starts of the bands.
    private static func bandStarts(_ fields: [CatalogueField]) -> [Int] {
        Array(Set(fields.flatMap { [$0.versions.lowerBound, $0.versions.upperBound + 1] })).sorted()
    }

    /// Every operation's shape, once per version band.
    private static func shapes(_ fields: [CatalogueField], bandStarts: [Int]) -> [ShapeKey: FieldShape] {
        var shapes: [ShapeKey: FieldShape] = [:]
        for (band, version) in bandStarts.enumerated() {
            let current = fields.filter { $0.versions.contains(version) }
            for operation in APIOperation.allCases {
                shapes[ShapeKey(operation: operation, band: band)] = build(
                    current.filter { $0.operations.contains(operation) },
                    elsewhere: current.filter { !$0.operations.contains(operation) }
                )
            }
        }
        return shapes
    }

    /// Nests dotted paths into objects and arrays; names only in `elsewhere` become `.elsewhere`.
    static func build(_ fields: [CatalogueField], elsewhere: [CatalogueField]) -> FieldShape {
        var root = ShapeBuilder()
        root.isOwn = true
        for field in elsewhere { root.insert(field.components[...], leaf: .elsewhere, overwrite: false) }
        for field in fields { root.insert(field.components[...], leaf: .value(field), overwrite: true) }
        return root.shape
    }
}

/// A mutable tree of names while a ``FieldShape`` is built.
private struct ShapeBuilder {
    var children: [String: ShapeBuilder] = [:]
    var leaf: FieldShape?
    var isArray = false
    /// Whether the operation itself takes this name or one below it (not only other operations).
    var isOwn = false

    mutating func insert(_ components: ArraySlice<Substring>, leaf: FieldShape, overwrite: Bool) {
        if overwrite { isOwn = true }
        guard let first = components.first else {
            if overwrite || self.leaf == nil { self.leaf = leaf }
            return
        }
        var name = String(first)
        var array = false
        if name.hasSuffix("[n]") {
            name.removeLast(3)
            array = true
        }
        var child = children[name] ?? ShapeBuilder()
        child.isArray = child.isArray || array
        child.insert(components.dropFirst(), leaf: leaf, overwrite: overwrite)
        children[name] = child
    }

    var shape: FieldShape {
        guard isOwn else { return .elsewhere }
        if let leaf, children.isEmpty { return isArray ? .array(leaf) : leaf }
        var members: [String: FieldShape] = [:]
        var chosen: FieldShape?
        for (name, child) in children {
            if name == "{name}" { chosen = child.shape } else { members[name] = child.shape }
        }
        let object = FieldShape.object(members, members: chosen)
        return isArray ? .array(object) : object
    }
}
