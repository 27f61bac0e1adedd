import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import MPGSAPI

@Suite("Authorization: Basic read as bytes")
struct BasicCredentialsTests {
    static func credentials(_ header: String?) -> (user: String, password: String)? {
        var fields = HTTPFields()
        if let header { fields[.authorization] = header }
        let head = HTTPRequest(method: .put, scheme: "http", authority: "localhost", path: "/", headerFields: fields)
        return MerchantAuthentication.basicCredentials(Request(head: head, body: .init(buffer: ByteBuffer())))
    }

    static func basic(_ text: String) -> String { "Basic " + Data(text.utf8).base64EncodedString() }

    @Test("user and password split at the first colon; the scheme in any case; blanks around the value")
    func accepted() throws {
        let plain = try #require(Self.credentials(Self.basic("merchant.TEST:secret")))
        #expect(plain.user == "merchant.TEST" && plain.password == "secret")
        let colons = try #require(Self.credentials(Self.basic("merchant.TEST:a:b:")))
        #expect(colons.user == "merchant.TEST" && colons.password == "a:b:")
        let empty = try #require(Self.credentials(Self.basic(":")))
        #expect(empty.user == "" && empty.password == "")
        let unicode = try #require(Self.credentials(Self.basic("merchant.é:pässwörd")))
        #expect(unicode.user == "merchant.é" && unicode.password == "pässwörd")
        let folded = try #require(Self.credentials("bAsIc \t" + Data("u:p".utf8).base64EncodedString() + " \t"))
        #expect(folded.user == "u" && folded.password == "p")
    }

    @Test("anything else is no credentials at all")
    func refused() {
        #expect(Self.credentials(nil) == nil)
        #expect(Self.credentials("Basic ") == nil)
        #expect(Self.credentials("Bearer " + Data("u:p".utf8).base64EncodedString()) == nil)
        #expect(Self.credentials("Basic" + Data("u:p".utf8).base64EncodedString()) == nil)
        #expect(Self.credentials(Self.basic("no colon here")) == nil)
        #expect(Self.credentials("Basic not*base64") == nil)
        // Invalid UTF-8 on either side of the colon.
        #expect(Self.credentials("Basic " + Data([0xFF, 0x3A, 0x61]).base64EncodedString()) == nil)
        #expect(Self.credentials("Basic " + Data([0x61, 0x3A, 0xC3]).base64EncodedString()) == nil)
    }
}
