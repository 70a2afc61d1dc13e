import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire folders`: the folders with their article counts (the older spelling of `quire folder
/// list`, kept for scripts).
struct FoldersVerb: Verb {
    static let name = "folders"
    static let summary = gettext("List the folders and how many articles each holds (= 'folder list')")
    static let usage = "[--library PATH] [--json]"

    let library: LibraryOption
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        try Self.printFolders(try await library.open().folders(), asJSON: emitsJSON)
    }

    /// The folders as `quire folders` and `quire folder` print them: count and name per line, or JSON.
    static func printFolders(_ folders: [FolderSummary], asJSON: Bool) throws {
        if asJSON {
            try VerbOutput.printJSON(folders)
            return
        }
        let text = folders.map { String($0.articleCount).leftPadded(to: 6) + "  " + $0.name + "\n" }.joined()
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

extension String {
    /// The string right-aligned in `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
