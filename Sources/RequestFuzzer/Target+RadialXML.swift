import RadialAPI

extension Target {
    /// The strict XML reader, then the CreditCardAuth and Decrypt decoders on what it accepts.
    /// Invariants: an accepted document is UTF-8 within the limits; written back out (by
    /// ``XMLRewriter``, not the API's writer) and read again it is the same element; a fault
    /// never repeats a card number the document held.
    static func radialXML(seeds: [[UInt8]]) -> Target {
        let tokens = ParserTokens(
            [
                "<", ">", "</", "/>", "<![CDATA[", "]]>", "<!--", "-->", "<!DOCTYPE a [<!ENTITY e \"x\">]>", "<?pi x?>",
                "&", "&#", "&#x", ";", "&amp;", "&lt;", "&#0;", "&#x10FFFF;", "&#xD800;", "&#65;", "&e;", "=\"", "'",
                "xmlns=\"\"", "xmlns:p=\"urn:p\"", "p:", ":", "xml:lang=\"en\"", " a=\"1\"", "\r", "\r\n", "\u{0}",
                "\u{FEFF}", "\u{FFFE}", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<OrderId>", "</OrderId>",
                "<Amount currencyCode=\"USD\">", "</Amount>", "<WalletPaymentInformation>", "<PaymentContext>",
            ],
            nesting: ("<a>", "</a>")
        )
        return Target(name: "radialXML", seeds: seeds, tokens: tokens) { input in
            guard let root = try? XMLReader.parse(input) else { return nil }
            let body = input.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input.dropFirst(3)) : input
            guard String(validating: body, as: UTF8.self) != nil else { return "accepted a document that is not UTF-8" }
            // The reader's default limits: 16 levels, 2,000 elements.
            guard depth(root) <= 16, count(root) <= 2_000 else { return "accepted past the limits" }
            let rewritten = XMLRewriter.document(root)
            let reread: XMLElement
            do throws(XMLReaderError) {
                reread = try XMLReader.parse(rewritten)
            } catch .tooLarge {
                return nil  // Written out with its declarations and references, longer than the limit.
            } catch {
                return "the accepted document, written out, is refused (\(error)): \(String(decoding: rewritten.prefix(400), as: UTF8.self))"
            }
            guard reread == root else { return "the accepted document, written out and read again, differs" }
            var faults: [RadialFault] = []
            do throws(RadialFault) { try RadialRequestReading.creditCardAuth(root) } catch { faults.append(error) }
            do throws(RadialFault) { try RadialRequestReading.decrypt(root) } catch { faults.append(error) }
            for fault in faults {
                if let number = echoedCardNumber(in: String(describing: fault), values: values(root)) {
                    return "a fault repeats the card number \(number.prefix(6))…"
                }
            }
            return nil
        }
    }

    private static func values(_ element: XMLElement) -> [String] {
        [element.text] + element.attributes.map(\.value) + element.children.flatMap(values)
    }

    private static func depth(_ element: XMLElement) -> Int { 1 + (element.children.map(depth).max() ?? 0) }
    private static func count(_ element: XMLElement) -> Int { 1 + element.children.map(count).reduce(0, +) }
}

/// An element written back as XML: every namespace declared where it is used (a prefix per
/// attribute, so none can clash), text before the children, every character that is markup or
/// that a reader would normalize written as a reference.
enum XMLRewriter {
    static func document(_ root: XMLElement) -> [UInt8] {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        write(root, parentNamespace: nil, into: &text)
        return Array(text.utf8)
    }

    private static func write(_ element: XMLElement, parentNamespace: String??, into text: inout String) {
        text += "<\(element.name)"
        if parentNamespace == nil || parentNamespace! != element.namespace {
            text += " xmlns=\"\(escape(element.namespace ?? ""))\""
        }
        for (index, attribute) in element.attributes.enumerated() {
            if let namespace = attribute.namespace {
                text += " xmlns:a\(index)=\"\(escape(namespace))\" a\(index):\(attribute.name)=\"\(escape(attribute.value))\""
            } else {
                text += " \(attribute.name)=\"\(escape(attribute.value))\""
            }
        }
        text += ">" + escape(element.text)
        for child in element.children { write(child, parentNamespace: .some(element.namespace), into: &text) }
        text += "</\(element.name)>"
    }

    private static func escape(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\r", "\n", "\t": result += "&#\(scalar.value);"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
