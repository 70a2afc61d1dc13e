import Foundation
import Library

/// `quire edit ID`: a new title and/or body for an article.
struct EditVerb: Verb {
    static let name = "edit"
    static let summary = "Change an article's title or body"
    static let usage = "[--library PATH] ID [--title TITLE] [--body-file FILE|-]"

    let library: LibraryOption
    let articleID: String
    let title: String?
    let bodyFile: String?

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        title = try arguments.option("--title")
        bodyFile = try arguments.option("--body-file")
        articleID = try arguments.positional("ID")
        if title == nil && bodyFile == nil { throw .missingArgument("--title or --body-file") }
    }

    func run() async throws {
        let body = try bodyFile.map { try TextInput.read($0, option: "--body-file") }
        let library = try library.open()
        try await library.editArticle(try await library.articleID(matching: articleID), title: title, body: body)
    }
}
