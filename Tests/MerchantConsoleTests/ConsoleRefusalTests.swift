import GatewayCore
import GatewayHTTP
import HTTPTypes
import Testing

@testable import MerchantConsole

/// What a browser on the console reads for a request the transport refused, and which paths
/// are the console's; and each console refusal's status and wording.
@Suite("Console refusals")
struct ConsoleRefusalTests {
    @Test("the console's paths are /ma and below it, and nothing that merely starts with the letters")
    func serves() {
        for path in ["/ma", "/ma/", "/ma/orders", "/ma/orders/o-1/capture", "/ma?next=/ma/orders", "/ma/console.css"] {
            #expect(ConsoleRoutes.serves(path), "\(path)")
        }
        for path in ["", "/", "/mas", "/ma.css", "/max/orders", "/api/rest/version/100/information", "/MA/orders", "ma/orders", "/x/ma/"] {
            #expect(!ConsoleRoutes.serves(path), "\(path)")
        }
    }

    @Test("a request the parser refused: 400, the console's page saying why, escaped")
    func malformed() {
        let answer = ConsoleRoutes.answer(for: .malformed(why: "a header <b>without</b> a colon"))
        #expect(answer.status == .badRequest)
        #expect(answer.contentType == "text/html; charset=utf-8")
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<title>Bad request · Merchant Administration</title>"))
        #expect(page.contains("The browser&#39;s request could not be read: a header &lt;b&gt;without&lt;/b&gt; a colon."))
        #expect(!page.contains("<b>"))
        #expect(!page.contains("/ma/logout"), "no session on a refused request")
    }

    @Test("a transfer coding the server does not implement: 501 naming it")
    func codingNotImplemented() {
        let answer = ConsoleRoutes.answer(for: .codingNotImplemented("gzip, chunked"))
        #expect(answer.status == .notImplemented)
        #expect(answer.contentType == "text/html; charset=utf-8")
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.contains("Transfer-Encoding &#39;gzip, chunked&#39;, which is not supported."))
        #expect(!page.contains(#""cause""#), "a page, not the MPGS JSON")
    }

    @Test(
        "each refusal's status; a locked operator reads as wrong credentials",
        arguments: [
            (ConsoleRejection.invalidCredentials, 401), (.sessionExpired, 401), (.addressLocked, 429), (.loginsBusy, 503),
            (.csrfTokenMismatch, 403), (.roleForbidden(.viewer), 403), (.orderNotFound("o-1"), 404), (.invalidField("Status"), 400),
            (.formTooLarge(limit: 65_536), 413),
        ]
    )
    func status(_ rejection: ConsoleRejection, _ code: Int) {
        #expect(Int(rejection.status.code) == code)
        #expect(!rejection.wording.isEmpty)
    }

    @Test("wording names what the operator can act on, and never tells an unknown name from a locked one")
    func wording() {
        let locked = ConsoleRejection.operatorLocked(until: .distantFuture)
        #expect(locked.wording == ConsoleRejection.invalidCredentials.wording)
        #expect(locked.status == ConsoleRejection.invalidCredentials.status)
        #expect(ConsoleRejection.invalidField("Card last four").wording == "The value of Card last four cannot be used.")
        #expect(ConsoleRejection.formTooLarge(limit: 65_536).wording.contains("(64 KB)"))
        #expect(ConsoleRejection.orderNotFound("o-1").wording.contains("o-1"))
        #expect(ConsoleRejection.csrfTokenMismatch.wording.contains("Open the page again"))
    }
}
