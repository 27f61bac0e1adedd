import Testing

@testable import MerchantConsole

/// The console's urlencoded forms, and the CSRF token comparison every POST goes through.
@Suite("Console forms")
struct FormFieldsTests {
    @Test("names and values are decoded: '+' is a space, percent escapes are UTF-8")
    func decoded() throws {
        let form = try #require(FormFields("orderId=order+1&note=caf%C3%A9%20au+lait&empty=&bare"))
        #expect(form.values == ["orderId": "order 1", "note": "café au lait", "empty": "", "bare": ""])
        #expect(try #require(FormFields("a%2Bb=1%2B2&x%3Dy=%26")).values == ["a+b": "1+2", "x=y": "&"])
    }

    @Test("a name given twice keeps its first value, so a second csrf cannot replace the first")
    func firstValueWins() throws {
        let form = try #require(FormFields("csrf=right&csrf=wrong&&amount=1"))
        #expect(form.raw("csrf") == "right")
        #expect(form.values.count == 2)
    }

    @Test("blank values filter nothing; raw values keep their spaces", arguments: ["", "   ", "+++"])
    func blank(_ value: String) throws {
        let form = try #require(FormFields(Substring("last4=\(value)&password=\(value)")))
        #expect(form["last4"] == nil)
        #expect(form.raw("password") == value.replacingOccurrences(of: "+", with: " "))
        #expect(form.raw("absent") == nil && form["absent"] == nil)
    }

    @Test("a value trimmed of spaces around it, not within it")
    func trimmed() throws {
        #expect(try #require(FormFields("orderId=++a+b++"))["orderId"] == "a b")
    }

    @Test(
        "bytes that do not decode make the whole form unreadable",
        arguments: ["orderId=%", "orderId=%zz", "%C3=1", "note=%FF%FE", "a=1&b=%E2%82"]
    )
    func unreadable(_ text: String) {
        #expect(FormFields(Substring(text)) == nil, "\(text)")
    }

    @Test("a body that is not UTF-8 is unreadable; one that is reads as its text")
    func bytes() throws {
        #expect(FormFields(bytes: [0x61, 0x3D, 0xFF]) == nil)
        #expect(try #require(FormFields(bytes: Array("a=%C3%A9".utf8))).values == ["a": "é"])
    }

    @Test("the CSRF comparison: equal only for the same token, whatever the lengths")
    func csrfComparison() {
        let token = "k2Vb7yQ0xY3nJm8pQwE1rT6uI9oP4aS5"
        #expect(ConsoleRoutes.constantTimeEqual(token, token))
        #expect(!ConsoleRoutes.constantTimeEqual(token, String(token.dropLast()) + "X"))
        #expect(!ConsoleRoutes.constantTimeEqual(token, String(token.dropLast())))
        #expect(!ConsoleRoutes.constantTimeEqual(token, token + "X"))
        #expect(!ConsoleRoutes.constantTimeEqual(token, ""))
        #expect(!ConsoleRoutes.constantTimeEqual("", token))
        // Equal Characters in different bytes (é precomposed and combined) are different tokens.
        #expect(!ConsoleRoutes.constantTimeEqual("caf\u{E9}", "cafe\u{301}"))
    }
}
