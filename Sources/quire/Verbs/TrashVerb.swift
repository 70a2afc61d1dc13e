import CommandLineArguments
import Library
import Platform

/// `quire trash ID`: moves an article to the trash.
struct TrashVerb: Verb {
    static let name = "trash"
    static let summary = gettext("Move an article to the trash")
    static let usage = "[--library PATH] ID"

    let library: LibraryOption
    let articleID: String

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        articleID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        try await library.moveToTrash([try await library.articleID(matching: articleID)])
    }
}
