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

    /// The value after `--name`, if the option is present.
    mutating func value(_ name: String) throws -> String? {
        guard let index = words.firstIndex(of: "--\(name)") else { return nil }
        guard index + 1 < words.count else { throw UsageError("--\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    mutating func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A duration such as `30d`, `12h`, `15m`, `10s` or plain seconds.
    mutating func duration(_ name: String) throws -> TimeInterval? {
        guard let text = try value(name) else { return nil }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        guard let number = Double(unit == nil ? Substring(text) : text.dropLast()), number >= 0 else {
            throw UsageError("--\(name) must be a duration such as 30d, 12h, 15m or 10s")
        }
        return number * (unit ?? 1)
    }

    /// `--data DIR` or `--postgres URL`; the default is SQLite in the user's data folder.
    mutating func storageLocation() throws -> StorageLocation {
        let data = try value("data")
        let postgres = try value("postgres")
        switch (data, postgres) {
        case (_?, _?):
            throw UsageError("give --data or --postgres, not both")
        case let (nil, url?):
            return .postgres(url: url)
        case let (directory?, nil):
            return .sqlite(directory: URL(fileURLWithPath: directory))
        case (nil, nil):
            let environment = ProcessInfo.processInfo.environment
            let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
            return .sqlite(directory: base.appendingPathComponent("quire-server"))
        }
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
