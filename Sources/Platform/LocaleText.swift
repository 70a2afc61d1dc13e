import CGLib
import Foundation

/// A whole number with the digit grouping of the user's locale (`LC_NUMERIC`, as
/// ``Translation/start()`` sets it): 12,345 in English, 12.345 in German, 12 345 in French. The
/// C locale groups nothing.
public func numberText(_ number: some BinaryInteger) -> String {
    guard let value = CLong(exactly: number) else { return "\(number)" }
    // printf's `'` flag groups by the locale's LC_NUMERIC; Foundation's formatters read their own
    // locale data instead of the process's.
    var buffer = [CChar](repeating: 0, count: 64)
    let written = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%'ld", $0) }
    guard written > 0, written < buffer.count else { return "\(number)" }
    return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A date and time of day as the user's locale writes them (`LC_TIME`: GLib's
/// `g_date_time_format` with `%x %X`, in the local time zone): "05/01/2024 09:30:00 AM" in
/// American English, "01.05.2024 09:30:00" in German, "01/05/24 09:30:00" in the C locale.
public func dateTimeText(_ date: Date) -> String {
    let seconds = gint64(date.timeIntervalSince1970.rounded(.down))
    guard let time = g_date_time_new_from_unix_local(seconds) else { return "\(date)" }
    defer { g_date_time_unref(time) }
    guard let text = g_date_time_format(time, "%x %X") else { return "\(date)" }
    defer { g_free(text) }
    return String(cString: text)
}
