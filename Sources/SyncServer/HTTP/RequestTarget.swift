/// The request target as the client sent it (`/v1/articles/a1?limit=10`), split but not decoded.
///
/// Routing works on the raw path and decodes each segment on its own, so that an escaped `/`
/// (`%2F`) cannot add a segment and an escaped NUL (`%00`) cannot cut an ID short: a decoded
/// segment that is not a valid ID is refused, never reinterpreted.
struct RequestTarget: Hashable, Sendable {
    /// The path, still percent-encoded.
    var path: String
    /// Query parameters, percent-decoded; a parameter given without a value maps to "". A value
    /// whose escapes are malformed is kept as sent, so that checking it fails.
    var query: [String: String]

    /// Splits `raw` at its first `?`.
    init(raw: String) {
        guard let mark = raw.firstIndex(of: "?") else {
            path = raw
            query = [:]
            return
        }
        path = String(raw[..<mark])
        var query: [String: String] = [:]
        for pair in raw[raw.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecoded(parts[0]) ?? String(parts[0])
            let value = parts.count > 1 ? (Self.percentDecoded(parts[1]) ?? String(parts[1])) : ""
            // The first of repeated parameters counts, as for libmicrohttpd's own lookup.
            if query[name] == nil { query[name] = value }
        }
        self.query = query
    }

    /// The path's segments after the leading `/`, still encoded; nil when the path does not start
    /// with `/` (an absolute or asterisk form).
    var segments: [Substring]? {
        guard path.hasPrefix("/") else { return nil }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
    }

    /// `text` with `%XX` escapes decoded, or nil when an escape is malformed or the bytes are not
    /// UTF-8. (`+` stays `+`: no ID, key or number the protocol uses contains one.)
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
