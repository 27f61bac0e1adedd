import PostgresNIO

/// One value a record binds, as an element of a batch's array.
enum PostgresElement: Sendable {
    case text(String)
    case integer(Int64)
    case boolean(Bool)
    case bytes([UInt8])
    case null

    init(_ value: StoredValue) {
        switch value {
        case .text(let text): self = .text(text)
        case .integer(let integer): self = .integer(integer)
        case .bytes(let bytes): self = .bytes(bytes)
        case .null: self = .null
        }
    }
}

/// One parameter of every record in a batch, bound as a one-dimensional PostgreSQL array in the
/// binary format, NULL elements included (PostgresNIO's own arrays have no NULL element). The
/// batch statement unnests such arrays side by side, one row per record. Each element is written
/// as its type's binary form straight from the record's value: through PostgresNIO's encodable
/// existentials, binding a batch cost a fifth more.
struct PostgresArrayColumn: PostgresDynamicTypeEncodable {
    let psqlType: PostgresDataType
    let psqlFormat = PostgresFormat.binary
    private let elementType: PostgresDataType
    private let elements: [PostgresElement]

    /// `elements` in the array's order; each must be of `type`.
    init(of type: GatewayRecordFunction.SQLType, _ elements: [PostgresElement]) {
        elementType = type.dataType
        psqlType = type.arrayDataType
        self.elements = elements
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        // Dimensions, the has-NULL flag, the element type; then the dimension's length and lower bound.
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { if case .null = $0 { true } else { false } } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(elementType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        // Each element: its length in bytes (-1 for NULL), then its bytes.
        for element in elements {
            switch element {
            case .text(let text):
                buffer.writeInteger(Int32(text.utf8.count))
                buffer.writeString(text)
            case .integer(let integer):
                buffer.writeInteger(8, as: Int32.self)
                buffer.writeInteger(integer)
            case .boolean(let boolean):
                buffer.writeInteger(1, as: Int32.self)
                buffer.writeInteger(boolean ? 1 : 0, as: UInt8.self)
            case .bytes(let bytes):
                buffer.writeInteger(Int32(bytes.count))
                buffer.writeBytes(bytes)
            case .null:
                buffer.writeInteger(-1, as: Int32.self)
            }
        }
    }
}
