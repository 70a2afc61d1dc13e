import Foundation
import Platform

/// How the conflict dialog says when a version was made: "today at 14:02", "yesterday at
/// 09:15", "on 3 Mar 2026 at 18:40", in the writer's locale and time zone.
enum VersionTime {
    /// The phrase for `date` seen at `now`.
    static func phrase(for date: Date, now: Date = Date(), calendar: Calendar = .current, locale: Locale = .current) -> String {
        let time = DateFormatter()
        time.locale = locale
        time.calendar = calendar
        time.timeZone = calendar.timeZone
        time.dateStyle = .none
        time.timeStyle = .short
        let clock = time.string(from: date)
        if calendar.isDate(date, inSameDayAs: now) { return String(cFormat: gettext("today at %s"), clock) }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
            return String(cFormat: gettext("yesterday at %s"), clock)
        }
        let day = DateFormatter()
        day.locale = locale
        day.calendar = calendar
        day.timeZone = calendar.timeZone
        day.dateStyle = .medium
        day.timeStyle = .none
        return String(cFormat: gettext("on %1$s at %2$s"), day.string(from: date), clock)
    }
}
