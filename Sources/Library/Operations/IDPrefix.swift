import Foundation

/// An ID as the command line accepts it: whole (any case), or its beginning (at least four
/// hexadecimal digits, dashes where the ID's usual form has them).
struct IDPrefix {
    let text: String

    init(_ text: String) { self.text = text }

    /// The one candidate `text` names; throws `noMatch` when none does and `ambiguous(matches)`
    /// when several begin with it.
    func match<Failure: Error>(in candidates: [UUID], noMatch: Failure, ambiguous: ([UUID]) -> Failure) throws -> UUID {
        if let id = UUID(uuidString: text) {
            guard candidates.contains(id) else { throw noMatch }
            return id
        }
        let prefix = text.lowercased()
        guard prefix.count >= 4, prefix.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { throw noMatch }
        let matches = candidates.filter { $0.uuidString.lowercased().hasPrefix(prefix) }
        guard let first = matches.first else { throw noMatch }
        guard matches.count == 1 else { throw ambiguous(matches.sorted { $0.uuidString < $1.uuidString }) }
        return first
    }

    /// IDs as a writer reads a list of candidates: lower case, at most ten, then how many more.
    static func list(_ ids: [UUID]) -> String {
        let shown = ids.prefix(10).map { $0.uuidString.lowercased() }.joined(separator: ", ")
        return ids.count > 10 ? shown + " and \(ids.count - 10) more" : shown
    }
}
