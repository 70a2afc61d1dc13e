import Foundation
import Library

/// The `--library PATH` option every library verb takes: the library to work on, by default the
/// writer's own (`Library.defaultURL()`).
struct LibraryOption: Sendable {
    /// The store file.
    let url: URL

    /// Reads `--library`; a relative path is taken from the current folder.
    init(arguments: inout VerbArguments) throws(CommandLineError) {
        if let path = try arguments.option("--library") {
            guard !path.isEmpty else { throw .invalidValue(option: "--library", value: path, expected: "a file path") }
            url = URL(fileURLWithPath: path)
        } else {
            url = Library.defaultURL()
        }
    }

    /// Opens the library; only verbs that add articles create a missing one.
    func open(creatingIfMissing: Bool = false) throws -> Library {
        try Library(url: url, createIfMissing: creatingIfMissing)
    }
}
