import ApplePayToken
import Foundation
import GooglePayToken
import Testing

@testable import MPGSAPI

@Suite("Error catalogue")
struct ErrorCatalogueTests {
    @Test("every token library code has advice")
    func libraryCodesDescribed() {
        for code in ApplePayTokenError.Code.allCases {
            let advice = ErrorCatalogue.libraryAdvice[code.rawValue]
            #expect(advice != nil && !advice!.when.isEmpty && !advice!.whatToDo.isEmpty, "\(code) has no advice")
        }
        #expect(Set(ErrorCatalogue.libraryAdvice.keys) == Set(ApplePayTokenError.Code.allCases.map(\.rawValue)))
    }

    @Test("every Google Pay library code has advice, and the section lists the gateway's own checks")
    func googlePayCodesDescribed() {
        for code in GooglePayTokenError.Code.allCases {
            let advice = ErrorCatalogue.googlePayLibraryAdvice[code.rawValue]
            #expect(advice != nil && !advice!.when.isEmpty && !advice!.whatToDo.isEmpty, "\(code) has no advice")
        }
        #expect(Set(ErrorCatalogue.googlePayLibraryAdvice.keys) == Set(GooglePayTokenError.Code.allCases.map(\.rawValue)))
        let names = ErrorCatalogue.googlePayTokenEntries.map(\.name)
        #expect(names.contains("GOOGLE_PAY_NOT_ENABLED") && names.contains("GATEWAY_MERCHANT_MISMATCH") && names.contains("REPLAYED"))
        #expect(ErrorCatalogue.googlePayTokenEntries.allSatisfy { $0.error.explanation.hasPrefix("Google Pay token rejected: ") })
    }

    @Test("each rule's example is of that rule")
    func examplesMatchTheirKinds() {
        for kind in RejectionKind.allCases { #expect(RejectionKind(kind.example) == kind) }
        for kind in TokenKind.allCases { #expect(TokenKind(kind.example) == kind) }
    }

    @Test("every entry says what the error is, when it happens and what to do")
    func entriesComplete() {
        let entries = ErrorCatalogue.sections.flatMap(\.entries)
        // The gateway's expiry check shares the library's MALFORMED_PAYMENT_DATA row.
        #expect(entries.count >= RejectionKind.allCases.count + TokenKind.allCases.count - 1 + ApplePayTokenError.Code.allCases.count)
        // Codes are unique within a section (Apple Pay's and Google Pay's share some names).
        for section in ErrorCatalogue.sections {
            let tokenNames = section.entries.map(\.name).filter { $0 == $0.uppercased() && $0.contains("_") }
            #expect(Set(tokenNames).count == tokenNames.count, "a code is listed twice in \(section.title): \(tokenNames)")
        }
        for entry in entries {
            #expect(!entry.name.isEmpty && !entry.error.explanation.isEmpty && !entry.when.isEmpty && !entry.whatToDo.isEmpty, "\(entry.name)")
        }
    }
}
