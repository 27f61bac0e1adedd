import ApplePayToken
import GatewayCore
import WireJSON

/// A JSON object built as a list of members instead of a dictionary, for responses built once and
/// written at once: no key is hashed. Written with its keys sorted exactly as
/// `JSONValue.serialized()` sorts them, so both give the same bytes for the same object.
struct JSONMembers {
    /// Not `indirect`: the array behind `members` already breaks the recursion, and an indirect
    /// case boxed every member on the heap (14 mallocs of a plain-card AUTHORIZE's response).
    enum Value {
        case json(JSONValue)
        case members(JSONMembers)
    }

    private var members: [(key: String, value: Value)] = []

    /// Distinct keys, as in a dictionary literal (checked in debug builds).
    init(_ values: KeyValuePairs<String, JSONValue> = [:]) {
        members.reserveCapacity(values.count + 4)
        for (key, value) in values { members.append((key, .json(value))) }
        assert(Set(members.map(\.key)).count == members.count, "a key given twice")
    }

    /// Sets `key`, replacing an earlier value as a dictionary would.
    mutating func set(_ key: String, _ value: JSONValue) {
        set(key, value: .json(value))
    }

    mutating func set(_ key: String, _ object: JSONMembers) {
        set(key, value: .members(object))
    }

    private mutating func set(_ key: String, value: Value) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
    }

    /// These members laid over `base`, as `base.overlaid(with: jsonValue)` lays them: objects
    /// merge member by member, anything else is replaced. The response goes over what the request
    /// echoes, and every request echoes at least its order's amount and currency.
    func laid(over base: JSONValue) -> JSONMembers {
        guard case .object(var below) = base else { return self }
        var merged = self
        for index in merged.members.indices {
            guard let found = below.index(forKey: merged.members[index].key) else { continue }
            // The key as spelt below, as a dictionary keeps it ("é" and "e\u{301}" are one key).
            let (key, under) = below.remove(at: found)
            merged.members[index].key = key
            switch merged.members[index].value {
            case .json(let value): merged.members[index].value = .json(under.overlaid(with: value))
            case .members(let members): merged.members[index].value = .members(members.laid(over: under))
            }
        }
        for (key, value) in below { merged.members.append((key, .json(value))) }
        return merged
    }

    var jsonValue: JSONValue { .object(dictionary) }

    var dictionary: [String: JSONValue] {
        Dictionary(
            uniqueKeysWithValues: members.map { member in
                switch member.value {
                case .json(let value): (member.key, value)
                case .members(let members): (member.key, members.jsonValue)
                }
            }
        )
    }

    func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(2048)
        write(into: &output)
        return output
    }

    func write(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        // Sorted positions rather than sorted copies of the members: nothing is retained to sort,
        // and the positions live in temporary (stack) memory, not a heap array per object.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: members.count) { buffer in
            var order = buffer  // sorting writes through the pointer, but is declared mutating
            _ = order.initialize(from: members.indices)
            order.sort { members[$0].key < members[$1].key }
            for (index, position) in order.enumerated() {
                let member = members[position]
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                switch member.value {
                case .json(let value): value.write(into: &output)
                case .members(let members): members.write(into: &output)
                }
            }
        }
        output.append(UInt8(ascii: "}"))
    }
}
