import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire edit ID`: a new title and/or body for an article, optionally only while it is still at
/// the revision a script read (`--if-revision`).
struct EditVerb: Verb {
    static let name = "edit"
    static let summary = gettext("Change an article's title or body")
    static let usage = "[--library PATH] ID [--title TITLE] [--body-file FILE|-] [--language TAG] [--if-revision N]"
    static let details = [
        gettext("--body-file replaces the whole body with the file's text (- for standard input).\n--language sets the article's language, a dictionary tag (en_US, de_DE, fr)."),
        gettext("--if-revision N saves only while the article is still at revision N: a read-modify-write\nthen never overwrites a change that came in between (another program's, or one 'quire\nsync' pulled). N is the article's revision in this library, which every change saved here\nand every other content 'quire sync' brings in bumps: \"Revision\" in 'quire show ID',\nsync.localRevision in 'quire show --json ID'. When the article changed since, nothing is\nsaved, the message says which revision it is at now, and the exit status is 75: read it\nagain and redo the change."),
        gettext("Each edit ends an editing session: the text saved is recorded in the article's history\n('quire history ID')."),
        gettext("An edit of an article with an open conflict is part of this device's side of it; when the\ntwo sides then merge cleanly, the conflict is resolved with the merge."),
    ].joined(separator: "\n\n")

    let library: LibraryOption
    let articleID: String
    let title: String?
    let bodyFile: String?
    let language: String?
    let revision: Int64?

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        title = try arguments.option("--title")
        bodyFile = try arguments.option("--body-file")
        language = try LanguageOption.read(from: &arguments)
        if let text = try arguments.option("--if-revision") {
            guard let revision = Int64(text), revision >= 0 else {
                throw .invalidValue(option: "--if-revision", value: text, expected: gettext("a revision number (0 or more)"))
            }
            self.revision = revision
        } else {
            revision = nil
        }
        articleID = try arguments.positional("ID")
        if title == nil && bodyFile == nil && language == nil { throw .missingArgument(gettext("--title, --body-file or --language")) }
    }

    func run() async throws {
        let body = try bodyFile.map { try TextInput.read($0, option: "--body-file") }
        let library = try library.open()
        let id = try await library.articleID(matching: articleID)
        do {
            // The edit ends an editing session: its version commits with it.
            try await library.editArticle(id, title: title, body: body, language: language, ifRevision: revision, endingSession: true)
        } catch let error as LibraryError {
            guard case .revisionChanged = error else { throw error }
            throw ChangedSinceRead(message: error.text.translated)
        }
    }
}

/// `quire edit --if-revision` or `quire resolve --if-kind` refused: the article or conflict changed
/// since the script read it (75, try again).
struct ChangedSinceRead: VerbFailure {
    let message: String
    var description: String { message }
    var exitStatus: Int32 { VerbRunner.ExitStatus.tryAgain }
}
