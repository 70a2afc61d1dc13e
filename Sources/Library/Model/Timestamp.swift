import Foundation

/// Dates as Quire's files write them: ISO 8601 in UTC with as many fraction digits as needed, such as
/// `2024-05-01T09:30:00Z` or `2024-05-01T09:30:00.25Z`.
///
/// The fraction keeps nanoseconds, which is finer than a `Date`'s `Double` resolves for any date more
/// than about 200 days away from 2001-01-01, so such dates read back exactly equal. Markdown front
/// matter and JSON archives share this one format.
public enum Timestamp {
    /// Seconds from 1970-01-01 to 2001-01-01, `Date`'s reference date.
    private static let referenceDateOffset: Int64 = 978_307_200

    /// The ISO 8601 text of `date`, in UTC, with the fewest fraction digits (none, 3, 6 or 9) that
    /// read back to exactly the same `Date`.
    ///
    /// Whether fewer digits read back is decided on the numbers, with the arithmetic
    /// ``date(from:)`` reads them with, and the text is made once: every export writes a date or
    /// three per article, and formatting and reading the text for each try was a tenth of a JSON
    /// archive's processor samples.
    public static func string(from date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        for digits in [0, 3, 6] {
            let (seconds, fraction) = split(interval, fractionDigits: digits)
            if Self.interval(referenceSeconds: seconds, nanoseconds: fraction * nanosecondsPerUnit[digits]) == interval {
                return text(referenceSeconds: seconds, fraction: fraction, fractionDigits: digits)
            }
        }
        let (seconds, fraction) = split(interval, fractionDigits: 9)
        return text(referenceSeconds: seconds, fraction: fraction, fractionDigits: 9)
    }

    /// Nanoseconds in one unit of the last of `n` fraction digits, by `n`.
    private static let nanosecondsPerUnit: [Int64] = [1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1000, 100, 10, 1]

    /// `interval` as whole seconds since the reference date, rounded down, and a fraction of
    /// `fractionDigits` digits, rounded to the nearest (a fraction that rounds up to a whole second
    /// carries into the seconds).
    private static func split(_ interval: TimeInterval, fractionDigits: Int) -> (seconds: Int64, fraction: Int64) {
        var whole = interval.rounded(.down)
        // `interval - whole` is exact, so the fraction loses nothing before it is rounded.
        let unit = Double(nanosecondsPerUnit[9 - fractionDigits])
        var fraction = Int64(((interval - whole) * unit).rounded())
        if Double(fraction) >= unit {
            whole += 1
            fraction = 0
        }
        return (Int64(whole), fraction)
    }

    /// The interval since the reference date of a text's whole seconds and nanoseconds: the one
    /// reading ``date(from:)`` and ``string(from:)`` share.
    private static func interval(referenceSeconds: Int64, nanoseconds: Int64) -> TimeInterval {
        Double(referenceSeconds) + Double(nanoseconds) / 1e9
    }

    private static func text(referenceSeconds: Int64, fraction: Int64, fractionDigits: Int) -> String {
        let seconds = referenceSeconds + referenceDateOffset
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        append(year, width: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 3600 / 60, width: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, width: 2, to: &text)
        if fractionDigits > 0 {
            text.append(UInt8(ascii: "."))
            append(fraction, width: fractionDigits, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads an ISO 8601 date: `YYYY-MM-DD`, optionally followed by `T` (or a space) and
    /// `hh:mm[:ss[.fraction]]`, optionally followed by `Z` or an offset `±hh[:mm]`.
    /// A time without a zone, or a date alone, is taken as UTC. Returns `nil` for anything else.
    public static func date(from text: String) -> Date? {
        var scanner = DigitScanner(text.utf8)
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var nanoseconds: Int64 = 0
        var zoneOffset: Int64 = 0
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let hour = scanner.number(digits: 2), hour < 24, scanner.skip(":"),
                  let minute = scanner.number(digits: 2), minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.skip(":") {
                guard let value = scanner.number(digits: 2), value < 60 else { return nil }
                second = value
                if scanner.skip(".") || scanner.skip(",") {
                    guard let fraction = scanner.fraction() else { return nil }
                    nanoseconds = fraction
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if scanner.skip("Z") || scanner.skip("z") {
                zoneOffset = 0
            } else if let sign: Int64 = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : nil) {
                guard let hours = scanner.number(digits: 2), hours < 24 else { return nil }
                var minutes: Int64 = 0
                if scanner.skip(":") || scanner.peekDigit {
                    guard let value = scanner.number(digits: 2), value < 60 else { return nil }
                    minutes = value
                }
                zoneOffset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard scanner.isAtEnd else { return nil }
        let seconds = days(fromYear: year, month: month, day: day) * 86_400 + secondOfDay - zoneOffset
        return Date(timeIntervalSinceReferenceDate: interval(referenceSeconds: seconds - referenceDateOffset, nanoseconds: nanoseconds))
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's algorithms)

    private static func civilDate(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromYear year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }

    /// Appends `value` in decimal, with zeros before it up to `width` digits (a sign before them).
    private static func append(_ value: Int64, width: Int, to text: inout [UInt8]) {
        if value < 0 { text.append(UInt8(ascii: "-")) }
        // The digits go in last first, and are turned around once all are there.
        let start = text.count
        var rest = value.magnitude
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        while text.count - start < width { text.append(UInt8(ascii: "0")) }
        text[start...].reverse()
    }
}

/// Reads the fixed-width numbers of an ISO 8601 date, byte by byte.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String.UTF8View) { bytes = Array(text) }

    var isAtEnd: Bool { index == bytes.count }
    var peekDigit: Bool { index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for _ in 0..<digits {
            guard peekDigit else { return nil }
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        return value
    }

    /// A decimal fraction as nanoseconds; digits past the ninth are dropped.
    mutating func fraction() -> Int64? {
        var value: Int64 = 0
        var count = 0
        while peekDigit {
            if count < 9 { value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 9) { value *= 10 }
        return value
    }
}
