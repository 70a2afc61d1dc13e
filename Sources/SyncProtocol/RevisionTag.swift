/// The strong entity tag that carries a server revision in `ETag` and `If-Match`: `"42"`.
///
///     request.setValue(RevisionTag.format(base), forHTTPHeaderField: SyncHeader.ifMatch)
///     let revision = RevisionTag.parse(response.value(forHTTPHeaderField: SyncHeader.eTag))
public enum RevisionTag {
    /// `"<revision>"`.
    public static func format(_ revision: Int64) -> String { "\"\(revision)\"" }

    /// The revision in a strong tag `"<digits>"`, or nil for anything else (weak tags, lists, `*`).
    public static func parse(_ tag: String?) -> Int64? {
        guard let tag, tag.count >= 3, tag.first == "\"", tag.last == "\"" else { return nil }
        let digits = tag.dropFirst().dropLast()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let revision = Int64(digits), revision > 0
        else { return nil }
        return revision
    }
}
