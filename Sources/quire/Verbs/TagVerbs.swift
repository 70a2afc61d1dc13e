import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire tag ID NAME…`: adds tags to an article (new tags are created).
struct TagVerb: Verb {
    static let name = "tag"
    static let summary = gettext("Add tags to an article (ID or the start of one)")
    static let usage = "[--library PATH] [--json] ID NAME..."
    static let details = gettext("Each NAME is one tag (quote a name with spaces); a tag the library lacks is created. The\nchange is one save, sent at the next 'quire sync'. Prints the article's ID and its tags;\nwith --json the article as 'quire show --json' prints it.")

    let tagging: TagNames

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        tagging = try TagNames(arguments: &arguments)
    }

    func run() async throws {
        try await tagging.apply { library, id, name in try await library.tagArticles([id], with: name) }
    }
}

/// `quire untag ID NAME…`: removes tags from an article.
struct UntagVerb: Verb {
    static let name = "untag"
    static let summary = gettext("Remove tags from an article")
    static let usage = TagVerb.usage
    static let details = gettext("A NAME the article does not carry changes nothing. The tag stays in the library ('quire\ntags delete NAME' removes it from every article). Prints as 'quire tag' does.")

    let tagging: TagNames

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        tagging = try TagNames(arguments: &arguments)
    }

    func run() async throws {
        try await tagging.apply { library, id, name in try await library.untagArticles([id], from: name) }
    }
}

/// What `quire tag` and `quire untag` read and do alike: an article, tag names, and the article's
/// tags printed afterwards.
struct TagNames: Sendable {
    let library: LibraryOption
    let articleID: String
    let names: [String]
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        articleID = try arguments.positional("ID")
        names = arguments.remainingPositionals()
        if names.isEmpty { throw .missingArgument("NAME") }
    }

    /// Makes `change` for each name (one save each), then prints the article.
    func apply(_ change: (Library, UUID, String) async throws -> Void) async throws {
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        for name in names { try await change(library, id, name) }
        let article = try await library.article(id)
        try ChangedArticle.print(article, field: ChangedArticle.tags(article), asJSON: emitsJSON)
    }
}

/// `quire tags [rename OLD NEW | delete NAME]`: the tags with their article counts, or a change
/// to a tag across every article.
struct TagsVerb: Verb {
    static let name = "tags"
    static let summary = gettext("List the tags and how many articles carry each; rename or delete one")
    static let usage = "[--library PATH] [--json] [rename OLD NEW | delete NAME]"
    static let details = [
        gettext("Without a subcommand, lists every tag with the number of its articles outside the trash;\n--json prints an array of objects with name and articleCount."),
        gettext("rename OLD NEW   Renames the tag on every article (to an existing tag's name: merges them).\ndelete NAME      Removes the tag from every article and deletes it.\nBoth are one save, and every article concerned is sent at the next 'quire sync'. They\nprint the tags as they are then."),
    ].joined(separator: "\n\n")

    enum Change {
        case rename(String, String)
        case delete(String)
    }

    let library: LibraryOption
    let change: Change?
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        switch arguments.positional() {
        case nil: change = nil
        case "rename"?: change = .rename(try arguments.positional("OLD"), try arguments.positional("NEW"))
        case "delete"?: change = .delete(try arguments.positional("NAME"))
        case let other?: throw .invalidValue(option: "subcommand", value: other, expected: gettext("rename or delete"))
        }
    }

    func run() async throws {
        let library = try library.open()
        switch change {
        case nil: break
        case let .rename(old, new)?: try await library.renameTag(old, to: new)
        case let .delete(name)?: try await library.deleteTag(name)
        }
        let tags = try await library.tags()
        if emitsJSON {
            try VerbOutput.printJSON(tags)
            return
        }
        let text = tags.map { String($0.articleCount).leftPadded(to: 6) + "  " + $0.name + "\n" }.joined()
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
