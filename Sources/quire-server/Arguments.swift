import Foundation
import SyncServer

/// The words after the verb, consumed option by option; every mistake is one line and exit 2.
struct Arguments {
    private var words: [String]

    init(_ words: [String]) { self.words = words }

    var isEmpty: Bool { words.isEmpty }

    /// The next word that is not an option, such as the account name.
    mutating func positional(_ name: String) throws -> String {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { throw UsageError("\(name) is missing") }
        return words.remove(at: index)
    }

    /// The value after `--name`, if the option is present; given twice, the last one counts.
    mutating func value(_ name: String) throws -> String? {
        var found: String?
        while let index = words.firstIndex(of: "--\(name)") {
            guard index + 1 < words.count else { throw UsageError("--\(name) needs a value") }
            found = words[index + 1]
            words.removeSubrange(index...index + 1)
        }
        return found
    }

    /// Whether `--name` (which takes no value) is present.
    mutating func flag(_ name: String) -> Bool {
        let count = words.count
        words.removeAll { $0 == "--\(name)" }
        return words.count != count
    }

    /// Fails on anything left over, so that a misspelt option is never ignored.
    func finish() throws {
        if let word = words.first { throw UsageError("unexpected '\(word)'") }
    }
}

/// A command line that cannot be run; printed with the usage and exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
