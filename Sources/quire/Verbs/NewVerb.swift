import CommandLineArguments
import Foundation
import Library
import Platform
import Transfer

/// `quire new`: a new article, its body from a file or standard input; prints its ID.
struct NewVerb: Verb {
    static let name = "new"
    static let summary = gettext("Create an article and print its ID")
    static let usage = "[--library PATH] [--json] --title TITLE [--body-file FILE|-] [--folder NAME] [--language TAG]"
    static let details = [
        gettext("Prints the new article's ID; --json prints the article as 'quire show --json' does."),
        gettext("--language gives the article's language as a dictionary tag (en_US, de_DE, fr); without\nit the article takes the language of the locale."),
    ].joined(separator: "\n\n")

    let library: LibraryOption
    let title: String
    let bodyFile: String?
    let folder: String?
    let language: String?
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        guard let title = try arguments.option("--title") else { throw .missingArgument("--title") }
        self.title = title
        bodyFile = try arguments.option("--body-file")
        folder = try arguments.option("--folder")
        language = try LanguageOption.read(from: &arguments)
    }

    func run() async throws {
        let body = try bodyFile.map { try TextInput.read($0, option: "--body-file") } ?? ""
        let library = try library.open(creatingIfMissing: true)
        let article = try await library.createArticle(ArticleContent(title: title, body: body, folder: folder, language: language))
        try await library.endEditingSession(of: article.id)
        if emitsJSON { return try VerbOutput.printJSON(ArchivedArticle(article, includingSync: true)) }
        print(article.id.uuidString.lowercased())
    }
}
