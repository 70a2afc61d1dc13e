/// The strong entity tag that carries a server revision in `ETag` and `If-Match`: `"42"`.
///
///     request.setValue(RevisionTag.format(base), forHTTPHeaderField: SyncHeader.ifMatch)
///     let revision = RevisionTag.parse(response.value(forHTTPHeaderField: SyncHeader.eTag))
public enum RevisionTag {
    /// `"<revision>"`.
    public static func format(_ revision: Int64) -> String { "\"\(revision)\"" }

    /// The revision in a strong tag `"<digits>"` written as `format` writes it, or nil for
    /// anything else: weak tags, lists, `*`, and leading zeros (`"013"` is another tag than
    /// `"13"`, since entity tags compare as strings).
    public static func parse(_ tag: String?) -> Int64? {
        guard let tag, tag.count >= 3, tag.first == "\"", tag.last == "\"" else { return nil }
        let digits = tag.utf8.dropFirst().dropLast()
        guard let first = digits.first, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first),
              digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let revision = Int64(String(decoding: digits, as: UTF8.self))
        else { return nil }
        return revision
    }

    /// Whether `text` is one entity tag, strong or weak, as RFC 9110 §8.8.3 spells it:
    /// `[W/]"…"` with printable characters other than `"` inside.
    public static func isEntityTag(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.starts(with: "W/".utf8) { bytes = bytes.dropFirst(2) }
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else { return false }
        return bytes.dropFirst().dropLast().allSatisfy { $0 == 0x21 || (0x23...0x7e).contains($0) || $0 >= 0x80 }
    }
}
