import Foundation
import Library

/// `quire resolve ID --keep mine|theirs|both|merged`: carries out the writer's decision on a
/// conflict (pushed at the next `quire sync`).
struct ResolveVerb: Verb {
    static let name = "resolve"
    static let summary = "Resolve a conflict: keep this device's version, the server's, both, or a merged one"
    static let usage = "[--library PATH] ID --keep mine|theirs|both|merged [--merged-file F|-] [--title T]"

    enum Keep: String {
        case mine, theirs, both, merged
    }

    let library: LibraryOption
    let conflictID: String
    let keep: Keep
    let mergedFile: String?
    let title: String?

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        guard let keepText = try arguments.option("--keep") else { throw .missingArgument("--keep") }
        guard let keep = Keep(rawValue: keepText) else {
            throw .invalidValue(option: "--keep", value: keepText, expected: "mine, theirs, both or merged")
        }
        self.keep = keep
        mergedFile = try arguments.option("--merged-file")
        title = try arguments.option("--title")
        if keep == .merged, mergedFile == nil { throw .missingArgument("--merged-file (the merged body, for --keep merged)") }
        if keep != .merged, let mergedFile { throw .invalidValue(option: "--merged-file", value: mergedFile, expected: "used with --keep merged") }
        if keep != .merged, let title { throw .invalidValue(option: "--title", value: title, expected: "used with --keep merged") }
        conflictID = try arguments.positional("ID")
    }

    func run() async throws {
        let library = try library.open()
        let conflict = try await find(conflictID, in: library)
        let resolution: ConflictResolution
        switch keep {
        case .mine: resolution = conflict.remote == nil && conflict.local != nil ? .restoreMine : .keepMine
        case .theirs: resolution = conflict.remote == nil ? .acceptDelete : .keepTheirs
        case .both: resolution = .keepBoth
        case .merged:
            let body = try TextInput.read(mergedFile ?? "-", option: "--merged-file")
            resolution = .merged(Self.mergedContent(of: conflict, body: body, title: title))
        }
        let outcome = try await library.resolveConflict(conflict.id, resolution)
        var text = "resolved \(conflict.id.uuidString.lowercased()) (\(resolution.kind.rawValue))"
        if let copy = outcome.copy { text += "; this device's version is now \(copy.id.uuidString.lowercased()) '\(copy.title)'" }
        print(text)
    }

    /// The merged content: the writer's body, and every other field merged from both sides (this
    /// device's value where they conflict), the title unless given.
    static func mergedContent(of conflict: ConflictSnapshot, body: String, title: String?) -> ArticleContent {
        var content: ArticleContent
        if let base = conflict.base, let local = conflict.local, let remote = conflict.remote {
            content = ArticleMerge(base: base, mine: local, theirs: remote)
                .resolved(title: { _ in .mine }, body: { _ in .mine }, folder: .mine, status: .mine)
        } else {
            content = conflict.local ?? conflict.remote ?? ArticleContent(title: "", body: "")
        }
        content.body = body
        if let title { content.title = title }
        return content
    }

    /// The open conflict whose ID is `text` or begins with it (at least four characters).
    private func find(_ text: String, in library: Library) async throws -> ConflictSnapshot {
        if let id = UUID(uuidString: text) { return try await library.conflict(id) }
        let prefix = text.lowercased()
        let matches = try await library.openConflicts().filter { prefix.count >= 4 && $0.id.uuidString.lowercased().hasPrefix(prefix) }
        guard let match = matches.first, matches.count == 1 else {
            throw ResolveError(message: matches.isEmpty ? "no open conflict's ID begins with '\(text)'"
                               : "\(matches.count) conflicts have IDs beginning with '\(text)'; give more of the ID")
        }
        return match
    }
}

struct ResolveError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
