import CommandLineArguments
import Foundation
import Library
import Platform
import SyncProtocol

/// `quire favorite ID [--off]`: stars (or unstars) an article.
struct FavoriteVerb: Verb {
    static let name = "favorite"
    static let summary = gettext("Star an article, or unstar it with --off")
    static let usage = "[--library PATH] [--json] [--off] ID"
    static let details = gettext("Prints the article's ID and whether it is a favorite; with --json the article as 'quire\nshow --json' prints it.")

    let library: LibraryOption
    let articleID: String
    let isFavorite: Bool
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        isFavorite = !arguments.flag("--off")
        articleID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        try await library.setFavorite(isFavorite, for: [id])
        let article = try await library.article(id)
        try ChangedArticle.print(article, field: article.isFavorite ? gettext("favorite") : gettext("not a favorite"), asJSON: emitsJSON)
    }
}

/// `quire status ID draft|ready|published`: sets an article's workflow status.
struct StatusVerb: Verb {
    static let name = "status"
    static let summary = gettext("Set an article's status: draft, ready or published")
    static let usage = "[--library PATH] [--json] ID draft|ready|published"
    static let details = gettext("Prints the article's ID and its status; with --json the article as 'quire show --json'\nprints it. 'quire list --status ready' lists the articles of a status.")

    let library: LibraryOption
    let articleID: String
    let status: ArticleStatus
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        articleID = try arguments.positional("ID")
        status = try StatusVerb.status(try arguments.positional("STATUS"), option: "STATUS")
    }

    /// A status as the command line spells it.
    static func status(_ text: String, option: String) throws(CommandLineError) -> ArticleStatus {
        guard let status = ArticleStatus(rawValue: text.lowercased()) else {
            throw .invalidValue(option: option, value: text, expected: gettext("draft, ready or published"))
        }
        return status
    }

    func run() async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        try await library.setStatus(status, for: [id])
        let article = try await library.article(id)
        try ChangedArticle.print(article, field: String(cFormat: gettext("status: %s"), article.status.word), asJSON: emitsJSON)
    }
}

/// `quire move ID --folder NAME|--none`: files an article in a folder, or in none.
struct MoveVerb: Verb {
    static let name = "move"
    static let summary = gettext("Move an article to a folder, or out of every folder with --none")
    static let usage = "[--library PATH] [--json] ID --folder NAME|--none"
    static let details = gettext("The folder must exist ('quire folder add NAME' creates one). Prints the article's ID and\nits folder; with --json the article as 'quire show --json' prints it.")

    let library: LibraryOption
    let articleID: String
    let folder: String?
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        let folder = try arguments.option("--folder")
        let none = arguments.flag("--none")
        switch (folder, none) {
        case (nil, false): throw .missingArgument(gettext("--folder NAME or --none"))
        case (_?, true): throw .conflictingOptions("--folder", "--none")
        default: self.folder = folder
        }
        articleID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        try await library.moveArticles([id], toFolder: folder)
        let article = try await library.article(id)
        try ChangedArticle.print(article, field: String(cFormat: gettext("folder: %s"), article.folder ?? gettext("none")), asJSON: emitsJSON)
    }
}
