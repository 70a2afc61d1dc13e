import Foundation

/// What the tag entry offers as the writer types: the library's tags that begin with the typed
/// text (ignoring case and accents), leaving out those the article carries; and the tag Return
/// adds, which is an existing tag's own spelling when the text names one, a new tag otherwise.
struct TagCompletion: Sendable, Hashable {
    /// Every tag of the library, by name.
    var known: [String]
    /// The tags the article carries.
    var carried: [String]

    /// The tags that complete `typed`, in the library's order; none for blank text.
    func suggestions(for typed: String) -> [String] {
        let typed = typed.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return [] }
        return known.filter { name in
            !carries(name) && name.range(of: typed, options: [.anchored, .caseInsensitive, .diacriticInsensitive]) != nil
        }
    }

    /// The tag Return adds for `typed`: nil for blank text or a tag the article already carries.
    func tagToAdd(for typed: String) -> String? {
        let typed = typed.trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return nil }
        let name = known.first { Self.same($0, typed) } ?? typed
        return carries(name) ? nil : name
    }

    private func carries(_ name: String) -> Bool { carried.contains { Self.same($0, name) } }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }
}
