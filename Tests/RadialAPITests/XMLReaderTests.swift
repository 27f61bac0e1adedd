import Testing

@testable import RadialAPI

@Suite("Strict XML reader")
struct XMLReaderTests {
    private func parse(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) throws(XMLReaderError) -> XMLElement {
        try XMLReader.parse(Array(text.utf8), limits: limits)
    }

    private func refusal(_ text: String, limits: XMLReader.Limits = XMLReader.Limits()) -> XMLReaderError? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("elements, attributes, namespaces, text, CDATA, comments and references")
    func wellFormed() throws {
        let root = try parse(
            """
            \u{FEFF}<?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <!-- a comment -->
            <p:Root xmlns:p="urn:a" xmlns="urn:b" id='7' p:flag="x&amp;y">
              <Child>a &lt;b&gt; &quot;c&quot; &apos;d&apos; &#65;&#x42;&#x1F600;</Child>
              <Empty/>
              <Data><![CDATA[<not markup> & raw]]></Data>
              <Inner xmlns=""><Plain>t</Plain></Inner>
            </p:Root>
            """
        )
        #expect(root.name == "Root")
        #expect(root.namespace == "urn:a")
        #expect(root.attribute("id") == "7")
        #expect(root.attributes.first { $0.name == "flag" }?.namespace == "urn:a")
        #expect(root.attributes.first { $0.name == "flag" }?.value == "x&y")
        #expect(root.children.map(\.name) == ["Child", "Empty", "Data", "Inner"])
        #expect(root.child("Child")?.namespace == "urn:b")
        #expect(root.childText("Child") == "a <b> \"c\" 'd' AB\u{1F600}")
        #expect(root.childText("Empty") == "")
        #expect(root.childText("Data") == "<not markup> & raw")
        #expect(root.child("Inner")?.child("Plain")?.namespace == nil)
    }

    @Test(
        "DOCTYPE, entity declarations, external entities and processing instructions are refused",
        arguments: [
            #"<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><r>&b;</r>"#,
            #"<!DOCTYPE r SYSTEM "http://example.com/evil.dtd"><r/>"#,
            #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#,
            #"<r><!DOCTYPE r></r>"#,
            #"<r><!ENTITY x "y"></r>"#,
        ]
    )
    func doctypeRefused(_ text: String) {
        #expect(refusal(text) == .doctypeForbidden)
    }

    @Test("processing instructions other than the declaration are refused")
    func processingInstructions() {
        #expect(refusal(#"<?xml-stylesheet href="a"?><r/>"#) == .processingInstructionForbidden)
        #expect(refusal("<r><?php echo 1; ?></r>") == .processingInstructionForbidden)
        #expect(refusal(#"<r/><?x y?>"#) == .processingInstructionForbidden)
        #expect(refusal(#" <?xml version="1.0"?><r/>"#) == .processingInstructionForbidden)
    }

    @Test("undefined entities, bad references and non-UTF-8 encodings are refused")
    func references() {
        #expect(refusal("<r>&lol;</r>") == .undefinedEntity("lol"))
        #expect(refusal("<r a='&xxe;'/>") == .undefinedEntity("xxe"))
        #expect(refusal("<r>&#0;</r>") == .invalidCharacterReference)
        #expect(refusal("<r>&#xD800;</r>") == .invalidCharacterReference)
        #expect(refusal("<r>&#x110000;</r>") == .invalidCharacterReference)
        #expect(refusal("<r>& amp;</r>") != nil)
        #expect(refusal(#"<?xml version="1.0" encoding="ISO-8859-1"?><r/>"#) == .unsupportedEncoding("ISO-8859-1"))
        #expect((try? XMLReader.parse([0x3C, 0x72, 0x3E, 0xFF, 0x3C, 0x2F, 0x72, 0x3E])) == nil)
        #expect(refusal("<r>\u{1}</r>") == .invalidCharacter(offset: 3))
    }

    @Test("depth, size, element count, attribute count and text length are bounded")
    func limits() {
        let deep = String(repeating: "<a>", count: 17) + String(repeating: "</a>", count: 17)
        #expect(refusal(deep) == .tooDeep(limit: 16))
        let shallow = String(repeating: "<a>", count: 16) + String(repeating: "</a>", count: 16)
        #expect(refusal(shallow) == nil)
        // A million opening tags is refused by size before anything is built.
        #expect(refusal(String(repeating: "<a>", count: 1_000_000)) == .tooLarge(limit: 65_536))
        var few = XMLReader.Limits()
        few.maxElements = 10
        #expect(refusal("<r>" + String(repeating: "<a/>", count: 10) + "</r>", limits: few) == .tooManyElements(limit: 10))
        let attributes = (0..<17).map { "a\($0)='1'" }.joined(separator: " ")
        #expect(refusal("<r \(attributes)/>") == .tooManyAttributes(element: "r", limit: 16))
        #expect(refusal("<r>" + String(repeating: "x", count: 16_385) + "</r>") == .textTooLong(limit: 16_384))
        var large = XMLReader.Limits()
        large.maxBytes = 200_000
        #expect(refusal("<r>" + String(repeating: "&amp;", count: 16_385) + "</r>", limits: large) == .textTooLong(limit: 16_384))
    }

    @Test(
        "malformed documents are refused",
        arguments: [
            "", "text", "<r>", "<r></s>", "<r><a></r></a>", "<r/><r/>", "<r a='1' a='2'/>", "<r a=1/>", "<r a='<'/>",
            "<p:r/>", "<r>]]></r>", "<r><!-- a -- b --></r>", "<r><![CDATA[x</r>", "<1r/>", "<r a='1'b='2'/>",
            "<a:b:c/>", "<r>text</r>trailing",
        ]
    )
    func malformed(_ text: String) {
        #expect(refusal(text) != nil)
    }

    @Test("the writer escapes what the reader unescapes")
    func roundTrip() throws {
        let value = "a<b>&\"c\" 'd'\r\n\te"
        let output = XMLOutput("Root", attributes: [("attribute", value)], children: [XMLOutput("Child", text: value)])
        let root = try XMLReader.parse(XMLWriter.document(output))
        #expect(root.attribute("attribute") == value)
        #expect(root.childText("Child") == value)
    }
}
