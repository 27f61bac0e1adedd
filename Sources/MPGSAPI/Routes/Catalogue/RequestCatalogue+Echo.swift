import ApplePayToken
import GatewayCore
import WireJSON

extension RequestCatalogue {
    /// What a response returns of a checked request: the catalogued fields under the echo
    /// prefixes, as sent; secret fields (card data, cryptograms) never.
    /// Free text is echoed with card numbers masked (CardNumberRedaction): the echo is stored
    /// with the transaction, and a PAN typed into a description must not be.
    func echo(of request: JSONValue, shape: FieldShape) -> JSONValue {
        Self.maskingCardNumbers(Self.project(request, shape: shape) { $0.isEchoed } ?? .object([:]))
    }

    private static func maskingCardNumbers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(CardNumberRedaction.mask(text))
        case .object(let members): .object(members.mapValues(maskingCardNumbers))
        case .array(let elements): .array(elements.map(maskingCardNumbers))
        default: value
        }
    }

    /// The description of the order an earlier response gave (billing, customer, shipping,
    /// order.description, ...), which later responses and Retrieve Order repeat.
    func orderEcho(of response: JSONValue) -> JSONValue {
        Self.project(response, shape: everyField) { $0.staysOnOrder } ?? .object([:])
    }

    /// The parts of `value` whose catalogued field `keep` accepts; nil when nothing is left.
    private static func project(_ value: JSONValue, shape: FieldShape, keep: (CatalogueField) -> Bool) -> JSONValue? {
        switch (shape, value) {
        case (_, .null), (.elsewhere, _), (.text, _), (.any, _):
            return nil
        case (.value(let field), _):
            if case .string(let text) = value, text.isEmpty { return nil }
            return keep(field) ? value : nil
        case (.object(let fields, let chosen), .object(let members)):
            var kept: [String: JSONValue] = [:]
            for (name, member) in members {
                guard let child = fields[name] ?? chosen, let projected = project(member, shape: child, keep: keep) else {
                    continue
                }
                kept[name] = projected
            }
            return kept.isEmpty ? nil : .object(kept)
        case (.array(let item), .array(let elements)):
            let kept = elements.compactMap { project($0, shape: item, keep: keep) }
            return kept.isEmpty ? nil : .array(kept)
        default:
            return nil
        }
    }
}
