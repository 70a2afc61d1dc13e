import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire restore ID`: takes an article out of the trash, back into its folder.
struct RestoreVerb: Verb {
    static let name = "restore"
    static let summary = gettext("Take an article out of the trash")
    static let usage = "[--library PATH] ID"

    let library: LibraryOption
    let articleID: String

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        articleID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        let article = try await library.article(id)
        // Restoring an article that is not in the trash would change nothing: say so, as `rm`
        // says a file is missing, rather than succeed silently.
        guard article.trashed != nil else { throw RestoreVerbError.notInTrash(title: article.title, id: id) }
        try await library.restore([id])
    }
}

/// Why `quire restore` did nothing.
enum RestoreVerbError: Error, CustomStringConvertible {
    case notInTrash(title: String, id: UUID)

    var description: String {
        switch self {
        case let .notInTrash(title, id):
            String(cFormat: gettext("'%1$s' (%2$s) is not in the trash"), title.isEmpty ? gettext("Untitled") : title, id.uuidString.lowercased())
        }
    }
}
