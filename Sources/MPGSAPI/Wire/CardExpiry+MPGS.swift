import ApplePayToken
import GatewayCore
import WireJSON

extension CardExpiry {
    /// From the request's `expiry.month` and `expiry.year` ("05", "5", "39", "2039").
    static func reading(month monthText: String, year yearText: String, field: String) throws(GatewayError) -> CardExpiry {
        guard let month = Int(monthText), (1...12).contains(month) else {
            throw GatewayError.invalidValue("\(field).month", monthText, "Month must be between 1 and 12")
        }
        guard let year = Int(yearText), (0...99).contains(year) || (2000...2099).contains(year) else {
            throw GatewayError.invalidValue("\(field).year", yearText, "Year must be two digits")
        }
        return CardExpiry(month: month, year: year % 100)
    }

    var json: JSONValue {
        .object(["month": .string(String(month)), "year": .string(year < 10 ? "0\(year)" : String(year))])
    }
}
