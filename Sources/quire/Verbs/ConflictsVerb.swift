import Foundation
import Library

/// `quire conflicts`: the conflicts waiting for the writer's decision.
struct ConflictsVerb: Verb {
    static let name = "conflicts"
    static let summary = "List the conflicts waiting for a decision"
    static let usage = "[--library PATH] [--json]"

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
            let title = conflict.local?.title ?? conflict.remote?.title ?? conflict.base?.title ?? ""
            let kind = conflict.local == nil ? "deleted here, edited on the server"
                : conflict.remote == nil ? "edited here, deleted on the server" : "edited on both sides"
            text += "\(conflict.id.uuidString.lowercased())  \(VerbOutput.date(conflict.detected))  "
                + "\(conflict.articleID.uuidString.lowercased())  \(title.isEmpty ? "(untitled)" : title)  [\(kind)]\n"
        }
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}

/// One conflict of `quire conflicts --json`, with the three versions.
struct ListedConflict: Encodable {
    let id: String
    let articleID: String
    let detected: Date
    let editVersusDelete: Bool
    let base: ArticleContent?
    let local: ArticleContent?
    let remote: ArticleContent?
    let baseRevision: Int64?
    let remoteRevision: Int64?

    init(_ conflict: ConflictSnapshot) {
        id = conflict.id.uuidString.lowercased()
        articleID = conflict.articleID.uuidString.lowercased()
        detected = conflict.detected
        editVersusDelete = conflict.isEditVersusDelete
        base = conflict.base
        local = conflict.local
        remote = conflict.remote
        baseRevision = conflict.baseRevision
        remoteRevision = conflict.remoteRevision
    }

    private enum CodingKeys: String, CodingKey {
        case id, articleID = "articleId", detected, editVersusDelete, base, local, remote, baseRevision, remoteRevision
    }

    // Absent values are written as null, so every object has every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(articleID, forKey: .articleID)
        try container.encode(detected, forKey: .detected)
        try container.encode(editVersusDelete, forKey: .editVersusDelete)
        try container.encode(base, forKey: .base)
        try container.encode(local, forKey: .local)
        try container.encode(remote, forKey: .remote)
        try container.encode(baseRevision, forKey: .baseRevision)
        try container.encode(remoteRevision, forKey: .remoteRevision)
    }
}
