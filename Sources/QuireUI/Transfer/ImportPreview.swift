import Foundation
import Library
import Platform
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
        if summary.created > 0 { parts.append(String(cFormat: ngettext("%d new article", "%d new articles", summary.created), summary.created)) }
        if summary.replaced > 0 { parts.append(String(cFormat: ngettext("%d article replaced", "%d articles replaced", summary.replaced), summary.replaced)) }
        if summary.copied > 0 { parts.append(String(cFormat: ngettext("%d copy", "%d copies", summary.copied), summary.copied)) }
        if summary.skipped > 0 { parts.append(String(cFormat: ngettext("%d skipped", "%d skipped", summary.skipped), summary.skipped)) }
        if summary.unchanged > 0 { parts.append(String(cFormat: ngettext("%d unchanged", "%d unchanged", summary.unchanged), summary.unchanged)) }
        if summary.failed > 0 { parts.append(String(cFormat: ngettext("%d cannot be imported", "%d cannot be imported", summary.failed), summary.failed)) }
        return parts.isEmpty ? gettext("Nothing to import") : parts.joined(separator: gettext(", "))
    }

    @MainActor
    private static func line(for item: ImportPlan.Item) -> Line {
        let title = ConflictDialog.displayTitle(item.imported.article.title)
        switch item.action {
        case .create:
            let detail = item.article.folder.map { String(cFormat: gettext("New article in “%s”"), $0) } ?? gettext("New article outside any folder")
            return Line(kind: .create, title: title, detail: detail)
        case .replace(let changes):
            let fields = ArticleField.allCases.filter(changes.contains).map(\.label)
            return Line(kind: .replace, title: title, detail: String(cFormat: gettext("Replaces the library’s version: %s"), fields.joined(separator: ", ")))
        case .copy:
            return Line(kind: .copy, title: title, detail: gettext("Imported as a copy beside the library’s article"))
        case .skip:
            return Line(kind: .skip, title: title, detail: gettext("Skipped: the library has another version"))
        case .unchanged:
            return Line(kind: .unchanged, title: title, detail: gettext("Already in the library as it is"))
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
        case .title: gettext("title")
        case .body: gettext("text")
        case .folder: gettext("folder")
        case .tags: gettext("tags")
        case .status: gettext("status")
        case .favorite: gettext("favorite")
        case .trashed: gettext("trash")
        }
    }
}
