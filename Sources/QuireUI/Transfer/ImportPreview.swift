import Foundation
import Library
import Transfer

/// What the import dialog shows of an ``ImportPlan`` before anything is written: a summary, one
/// line per article that will be created or changed (and per article left alone), one line per
/// file that failed, and whether to ask what to do with articles the library already has.
///
/// Pure, so the wording and the rules are tested without GTK.
struct ImportPreview: Sendable, Hashable {
    /// One line of the preview.
    struct Line: Sendable, Hashable {
        /// What the line is about.
        enum Kind: Sendable, Hashable { case create, replace, copy, skip, unchanged, failure }

        var kind: Kind
        /// The article's title, or the failed file's name.
        var title: String
        /// What happens to it, or why the file failed.
        var detail: String
    }

    /// The most article lines the dialog lists; the summary counts all of them.
    static let lineLimit = 300

    /// The article lines, in import order, at most ``lineLimit``.
    let lines: [Line]
    /// Article lines left out after ``lineLimit``.
    let moreLines: Int
    /// One line per file or article that could not be imported.
    let failures: [Line]
    /// The counts.
    let summary: ImportPlan.Summary
    /// How many imported articles have IDs the library already has, with other content: the
    /// on-existing choice (skip, replace, copy) matters only when this is not zero.
    let existingCount: Int
    /// How many articles importing saves.
    let writeCount: Int

    /// The preview of `plan`.
    @MainActor
    init(_ plan: ImportPlan) {
        let all = plan.items.map(Self.line(for:))
        lines = Array(all.prefix(Self.lineLimit))
        moreLines = all.count - lines.count
        failures = plan.failures.map { failure in
            Line(kind: .failure, title: URL(fileURLWithPath: failure.path).lastPathComponent, detail: Self.reason(failure))
        }
        summary = plan.summary
        existingCount = plan.items.filter { $0.existing != nil && $0.action != .unchanged }.count
        writeCount = plan.writes.count
    }

    /// Whether the dialog asks what to do with articles the library already has.
    var asksAboutExisting: Bool { existingCount > 0 }

    /// The summary sentence over the lists.
    var headline: String {
        var parts: [String] = []
        if summary.created > 0 { parts.append(Self.count(summary.created, "new article", "new articles")) }
        if summary.replaced > 0 { parts.append(Self.count(summary.replaced, "article replaced", "articles replaced")) }
        if summary.copied > 0 { parts.append(Self.count(summary.copied, "copy", "copies")) }
        if summary.skipped > 0 { parts.append(Self.count(summary.skipped, "skipped", "skipped")) }
        if summary.unchanged > 0 { parts.append(Self.count(summary.unchanged, "unchanged", "unchanged")) }
        if summary.failed > 0 { parts.append(Self.count(summary.failed, "cannot be imported", "cannot be imported")) }
        return parts.isEmpty ? "Nothing to import" : parts.joined(separator: ", ")
    }

    static func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == 1 ? singular : plural)"
    }

    @MainActor
    private static func line(for item: ImportPlan.Item) -> Line {
        let title = ConflictDialog.displayTitle(item.imported.article.title)
        switch item.action {
        case .create:
            let place = item.article.folder.map { "in “\($0)”" } ?? "outside any folder"
            return Line(kind: .create, title: title, detail: "New article \(place)")
        case .replace(let changes):
            let fields = ArticleField.allCases.filter(changes.contains).map(\.label)
            return Line(kind: .replace, title: title, detail: "Replaces the library’s version: \(fields.joined(separator: ", "))")
        case .copy:
            return Line(kind: .copy, title: title, detail: "Imported as a copy beside the library’s article")
        case .skip:
            return Line(kind: .skip, title: title, detail: "Skipped: the library has another version")
        case .unchanged:
            return Line(kind: .unchanged, title: title, detail: "Already in the library as it is")
        }
    }

    /// The error without the path, which the line's title already names.
    static func reason(_ failure: ImportError) -> String {
        let text = failure.description
        let prefix = failure.path + ":"
        guard text.hasPrefix(prefix) else { return text }
        return text.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
    }
}

extension ArticleField {
    /// The field as the preview names it.
    var label: String {
        switch self {
        case .title: "title"
        case .body: "text"
        case .folder: "folder"
        case .tags: "tags"
        case .status: "status"
        case .favorite: "favorite"
        case .trashed: "trash"
        }
    }
}
