import CommandLineArguments
import Foundation
import Library

/// `quire empty-trash`: deletes the articles in the trash for good.
struct EmptyTrashVerb: Verb {
    static let name = "empty-trash"
    static let summary = "Delete the articles in the trash for good"
    static let usage = "[--library PATH] [--json]"
    static let details = "--json prints one object: deleted, and kept (articles whose conflict waits for a decision)."

    let library: LibraryOption
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        let result = try await library.open().emptyTrash()
        if emitsJSON {
            try VerbOutput.printJSON(["deleted": .number(result.deleted), "kept": .number(result.kept)] as [String: JSONValue])
            return
        }
        var report = "Deleted \(Self.articles(result.deleted)) for good."
        if result.kept > 0 {
            report += " Kept \(Self.articles(result.kept)) with a conflict to resolve first (quire conflicts)."
        }
        FileHandle.standardOutput.write(Data((report + "\n").utf8))
    }

    private static func articles(_ count: Int) -> String {
        count == 1 ? "1 article" : "\(count) articles"
    }
}
