import Foundation
import GatewayCore

/// Times as MPGS writes them, formatted by hand from the epoch: Foundation's ISO 8601 style and
/// a Calendar per call were a visible part of every response.
enum Timestamp {
    /// ISO 8601 in UTC with milliseconds: `2026-11-22T23:39:54.123Z`.
    static func string(_ date: Date) -> String {
        let milliseconds = date.milliseconds
        let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let second = millisecondOfDay / 1000
        guard (0...9999).contains(year) else {
            return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T" + padded(second / 3600, 2) + ":"
                + padded(second / 60 % 60, 2) + ":" + padded(second % 60, 2) + "." + padded(millisecondOfDay % 1000, 3) + "Z"
        }
        // Digits written into the string's own 24 bytes: concatenating a dozen padded pieces
        // was most of a response's timestamp cost, and a response has two or three.
        return String(unsafeUninitializedCapacity: 24) { text in
            var end = 0
            func put(_ value: Int64, width: Int) {
                var rest = value
                for position in (end..<(end + width)).reversed() {
                    text[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += width
            }
            func put(_ character: Unicode.Scalar) {
                text[end] = UInt8(ascii: character)
                end += 1
            }
            put(year, width: 4)
            put("-")
            put(month, width: 2)
            put("-")
            put(day, width: 2)
            put("T")
            put(second / 3600, width: 2)
            put(":")
            put(second / 60 % 60, width: 2)
            put(":")
            put(second % 60, width: 2)
            put(".")
            put(millisecondOfDay % 1000, width: 3)
            put("Z")
            return end
        }
    }

    /// The acquirer batch: the UTC date as yyyyMMdd.
    static func batch(_ date: Date) -> Int {
        let (year, month, day) = civilDate(daysSinceEpoch: date.milliseconds.floorDivided(by: 86_400_000).quotient)
        return Int(year * 10000 + month * 100 + day)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

extension Int64 {
    /// Quotient rounded down and a remainder that is never negative (times before 1970).
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = (self >= 0 ? self : self - divisor + 1) / divisor
        return (quotient, self - quotient * divisor)
    }
}
