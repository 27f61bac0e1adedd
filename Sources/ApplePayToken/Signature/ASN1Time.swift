import Foundation
import SwiftASN1

/// A CMS signingTime: UTCTime or GeneralizedTime, as a Date.
struct ASN1Time {
    let date: Date

    init(_ element: BERElement) throws(CMSFormatError) {
        do {
            let node = try DER.parse(element.encoded)
            if node.identifier == .utcTime {
                let time = try UTCTime(derEncoded: node)
                date = ASN1Time.date(time.year, time.month, time.day, time.hours, time.minutes, Double(time.seconds))
            } else if node.identifier == .generalizedTime {
                let time = try GeneralizedTime(derEncoded: node)
                date = ASN1Time.date(
                    time.year,
                    time.month,
                    time.day,
                    time.hours,
                    time.minutes,
                    Double(time.seconds) + time.fractionalSeconds
                )
            } else {
                throw CMSFormatError("signingTime is neither UTCTime nor GeneralizedTime")
            }
        } catch let error as CMSFormatError {
            throw error
        } catch {
            throw CMSFormatError("signingTime is malformed")
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func date(
        _ year: Int,
        _ month: Int,
        _ day: Int,
        _ hours: Int,
        _ minutes: Int,
        _ seconds: Double
    )
        -> Date
    {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146097 + dayOfEra - 719468
        let secondsSinceEpoch = Double(days * 86400 + hours * 3600 + minutes * 60) + seconds
        return Date(timeIntervalSince1970: secondsSinceEpoch)
    }
}
