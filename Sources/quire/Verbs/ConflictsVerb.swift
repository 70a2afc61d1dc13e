import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire conflicts`: the conflicts waiting for the writer's decision, each with this device's side
/// as the article stands now (edits, restores and moves to the trash since the conflict was found
/// included).
struct ConflictsVerb: Verb {
    static let name = "conflicts"
    static let summary = gettext("List the conflicts waiting for a decision")
    static let usage = "[--library PATH] [--json]"
    static let details = [
        gettext("Each line: the conflict's ID, when it was found, the article's ID, its title and what the\nconflict is about now: edited on both sides; deleted here, edited on the server; edited\nhere, deleted on the server. This device's side is the article as it stands, in the library\nor in the trash, whatever happened to it since the conflict was found."),
        gettext("--json prints an array of objects: id, articleId, detected, kind (editedOnBothSides,\ndeletedHere, deletedOnServer; deletedOnBothSides only for a conflict recorded by an older\nQuire, which --keep theirs closes), editVersusDelete, base, local (this device's version now;\nnull when it is deleted here), remote (null when deleted on the server), baseRevision,\nremoteRevision, and keepTheirsKeepsCopy: whether 'quire resolve ID --keep theirs' first\nkeeps this device's text as \"Title (conflicted copy)\" (when that text is neither the\nserver's, nor the base's, nor what it was when the conflict was found)."),
    ].joined(separator: "\n\n")

    let library: LibraryOption
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        let conflicts = try await library.open().openConflicts()
        if emitsJSON {
            try VerbOutput.printJSON(conflicts.map(ListedConflict.init))
            return
        }
        var text = ""
        for conflict in conflicts {
            let title = conflict.title
            text += "\(conflict.id.uuidString.lowercased())  \(VerbOutput.date(conflict.detected))  "
                + "\(conflict.articleID.uuidString.lowercased())  \(title.isEmpty ? gettext("(untitled)") : title)  [\(conflict.kind.phrase.translated)]\n"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// One conflict of `quire conflicts --json`, with the three versions (this device's as it stands).
struct ListedConflict: Encodable {
    let id: String
    let articleID: String
    let detected: Date
    let kind: ConflictKind
    let editVersusDelete: Bool
    let base: ArticleContent?
    let local: ArticleContent?
    let remote: ArticleContent?
    let baseRevision: Int64?
    let remoteRevision: Int64?
    let keepTheirsKeepsCopy: Bool

    init(_ conflict: ConflictSnapshot) {
        id = conflict.id.uuidString.lowercased()
        articleID = conflict.articleID.uuidString.lowercased()
        detected = conflict.detected
        kind = conflict.kind
        editVersusDelete = conflict.isEditVersusDelete
        base = conflict.base
        local = conflict.local
        remote = conflict.remote
        baseRevision = conflict.baseRevision
        remoteRevision = conflict.remoteRevision
        keepTheirsKeepsCopy = conflict.sides.keepTheirsKeepsCopy
    }

    private enum CodingKeys: String, CodingKey {
        case id, articleID = "articleId", detected, kind, editVersusDelete, base, local, remote, baseRevision, remoteRevision
        case keepTheirsKeepsCopy
    }

    // Absent values are written as null, so every object has every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(articleID, forKey: .articleID)
        try container.encode(detected, forKey: .detected)
        try container.encode(kind, forKey: .kind)
        try container.encode(editVersusDelete, forKey: .editVersusDelete)
        try container.encode(base, forKey: .base)
        try container.encode(local, forKey: .local)
        try container.encode(remote, forKey: .remote)
        try container.encode(baseRevision, forKey: .baseRevision)
        try container.encode(remoteRevision, forKey: .remoteRevision)
        try container.encode(keepTheirsKeepsCopy, forKey: .keepTheirsKeepsCopy)
    }
}
