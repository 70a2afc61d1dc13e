import Foundation

/// A `Retry-After` header: a number of seconds, or an HTTP date (RFC 9110 §10.2.3).
public enum RetryAfter: Sendable, Hashable {
    /// Wait this many seconds.
    case seconds(Int)
    /// Wait until this time.
    case date(Date)

    /// The header's value, or nil when it is neither a non-negative integer nor an HTTP date
    /// (IMF-fixdate, or the obsolete RFC 850 and asctime forms that recipients must accept).
    public init?(headerValue: String) {
        let text = headerValue.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int(text) else { return nil }
            self = .seconds(seconds)
            return
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                self = .date(date)
                return
            }
        }
        return nil
    }

    /// Seconds to wait from `now`; 0 for a date in the past.
    public func delay(from now: Date) -> TimeInterval {
        switch self {
        case let .seconds(seconds): return TimeInterval(seconds)
        case let .date(date): return max(0, date.timeIntervalSince(now))
        }
    }
}
