import Foundation
import GtkKit
import Library
import Platform

/// The History panel of the open article: its earlier versions listed newest first, each with
/// its time, where it came from (this device, synced, before a conflict, an import or a restore)
/// and how many words it added or removed; the chosen one shown with the lines and words that
/// differ from the current text highlighted, as the conflict dialog highlights
/// (``ChangeHighlights``). Restore This Version (`history.restore`) hands the chosen version to
/// ``restoreChosen``; the host restores it through Library, and the panel closes.
///
/// The panel reads nothing itself: the host gives it the summaries and a way to read a version.
@MainActor
final class HistoryPanel {
    /// The panel's window.
    let window: Window
    /// The `history` actions.
    let actions: ActionGroup
    /// The versions listed, newest first.
    let versions: [ArticleVersionSummary]
    /// The version shown, once one is chosen.
    private(set) var chosen: ArticleVersionSnapshot?
    /// The chosen version's text, with its differences tagged.
    let buffer: TextBuffer
    /// The heading above the text: the chosen version's title, time and source.
    let heading: Label
    /// Called with the chosen version's ID when the writer restores it.
    var restoreChosen: (@MainActor (UUID) -> Void)?

    private let list: ListBox
    private let current: (title: String, body: String)
    private let readVersion: @MainActor (UUID) throws -> ArticleVersionSnapshot
    private let report: @MainActor (String, any Error) -> Void
    private var restore: Action?
    private var retainedWhileOpen: HistoryPanel?

    /// A panel over `parent` for the article whose title and body are now `current`.
    init(
        current: (title: String, body: String), versions: [ArticleVersionSummary], over parent: Window?,
        readVersion: @escaping @MainActor (UUID) throws -> ArticleVersionSnapshot, report: @escaping @MainActor (String, any Error) -> Void
    ) throws {
        let builder = try Builder(resource: Quire.resourcePath + "history/history-panel.ui")
        window = try builder.object("history_window")
        list = try builder.object("versions_list")
        buffer = try builder.object("version_buffer")
        heading = try builder.object("version_heading")
        self.versions = versions
        self.current = current
        self.readVersion = readVersion
        self.report = report
        window.transientFor = parent
        try builder.object("window_title", as: WindowTitle.self).subtitle = ConflictDialog.displayTitle(current.title)
        buffer.addLineTag(EditConflictView.changedTag, background: "rgba(53, 132, 228, 0.16)")
        buffer.addCharacterTag(EditConflictView.changedWordTag, background: EditConflictView.changedWordBackground)
        actions = ActionGroup(prefix: "history", on: window)
        restore = actions.addAction("restore") { [weak self] in self?.restoreTapped() }
        restore?.isEnabled = false
        actions.addAction("close", accelerators: ["Escape"]) { [weak self] in self?.window.close() }

        for (index, version) in versions.enumerated() {
            let older = versions.indices.contains(index + 1) ? versions[index + 1] : nil
            let row = ListBoxRow()
            row.child = Self.makeRowContent(version, older: older)
            list.append(row)
        }
        if versions.isEmpty {
            heading.text = gettext("No earlier versions yet. Quire keeps one each time you leave an article after editing it.")
        }
        list.connect(.rowSelected) { [weak self] row in
            guard let self, let row else { return }
            choose(at: row.index)
        }
        window.onDestroyed { [weak self] in self?.retainedWhileOpen = nil }
    }

    /// Shows the panel (it keeps itself alive while open) with the newest version chosen.
    func present() {
        retainedWhileOpen = self
        if let first = list.row(at: 0) { list.select(first) }
        window.present()
    }

    /// Shows the version at `index` with its differences from the current text.
    func choose(at index: Int) {
        guard versions.indices.contains(index) else { return }
        if let row = list.row(at: index), row.index != index { list.select(row) }
        do {
            let version = try readVersion(versions[index].id)
            chosen = version
            heading.text = "“\(ConflictDialog.displayTitle(version.title))”, \(Self.describe(versions[index]))"
            buffer.load(version.body)
            let highlights = ChangeHighlights.changes(from: current.body, to: version.body)
            let lines = LineOffsets(version.body)
            for range in highlights.changed { buffer.applyTag(EditConflictView.changedTag, to: lines.characters(of: range)) }
            for range in highlights.words { buffer.applyTag(EditConflictView.changedWordTag, to: range) }
            restore?.isEnabled = version.body != current.body || version.title != current.title
        } catch {
            report(gettext("Could not show the version"), error)
        }
    }

    private func restoreTapped() {
        guard let chosen else { return }
        restoreChosen?(chosen.id)
        window.close()
    }

    /// “Today at 14:03 · this device”: when and where from.
    static func describe(_ version: ArticleVersionSummary) -> String {
        String(cFormat: gettext("%1$s · %2$s"), VersionTime.phrase(for: version.recorded), version.source.label.translated)
    }

    /// How many words a version added or removed against the one before it (“+12 words”).
    nonisolated static func wordChange(_ version: ArticleVersionSummary, older: ArticleVersionSummary?) -> String {
        guard let older else { return String(cFormat: ngettext("%d word", "%d words", version.wordCount), version.wordCount) }
        let change = version.wordCount - older.wordCount
        if change == 0 { return gettext("same length") }
        return String(cFormat: change > 0 ? ngettext("+%d word", "+%d words", change) : ngettext("−%d word", "−%d words", -change), abs(change))
    }

    private static func makeRowContent(_ version: ArticleVersionSummary, older: ArticleVersionSummary?) -> Widget {
        let box = Box(.vertical, spacing: 2)
        box.marginStart = 6
        box.marginEnd = 6
        let time = Label(VersionTime.phrase(for: version.recorded))
        time.horizontalAlignment = 0
        time.setStyleClass("heading", on: true)
        let detail = Label(String(cFormat: gettext("%1$s · %2$s"), version.source.label.translated.prefix(1).uppercased() + version.source.label.translated.dropFirst(), wordChange(version, older: older)))
        detail.horizontalAlignment = 0
        detail.setStyleClass("caption", on: true)
        detail.setStyleClass("dim-label", on: true)
        box.append(time)
        box.append(detail)
        return box
    }
}
