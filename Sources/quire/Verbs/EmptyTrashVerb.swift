import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire empty-trash`: deletes the articles in the trash for good.
struct EmptyTrashVerb: Verb {
    static let name = "empty-trash"
    static let summary = gettext("Delete the articles in the trash for good")
    static let usage = "[--library PATH] [--json]"
    static let details = gettext("--json prints one object: deleted, and kept (articles whose conflict waits for a decision).")

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
        var report = String(cFormat: ngettext("Deleted %d article for good.", "Deleted %d articles for good.", result.deleted), result.deleted)
        if result.kept > 0 {
            report += " " + String(cFormat: ngettext("Kept %d article with a conflict to resolve first (quire conflicts).", "Kept %d articles with a conflict to resolve first (quire conflicts).", result.kept), result.kept)
        }
        FileHandle.standardOutput.write(Data((report + "\n").utf8))
    }
}
