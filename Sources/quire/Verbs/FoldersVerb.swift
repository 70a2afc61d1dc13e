import Foundation
import Library

/// `quire folders`: the folders with their article counts.
struct FoldersVerb: Verb {
    static let name = "folders"
    static let summary = "List the folders and how many articles each holds"
    static let usage = "[--library PATH] [--json]"

    let library: LibraryOption
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        let folders = try await library.open().folders()
        if emitsJSON {
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
