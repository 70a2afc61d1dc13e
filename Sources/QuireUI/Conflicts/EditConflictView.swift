import GtkKit
import Library
import Platform

/// The edit conflict's window (`conflict-dialog.ui`): this device's version and the server's side
/// by side with their changes highlighted, the base on request, the list of changes to decide,
/// and the merged result, which each choice updates in place and the writer may edit.
///
/// Its actions (`conflict.NAME`): `keep-mine`, `keep-theirs`, `keep-both`, `save-merged`,
/// `decide-later` (Escape) and the toggle `show-base`.
@MainActor
final class EditConflictView {
    /// The tag of lines one side changed where the merge could decide.
    static let changedTag = "changed"
    /// The tag of lines in places where the writer decides (and, in the merged result, of the
    /// text those choices put there).
    static let conflictingTag = "conflicting"
    /// The tag of the words that differ inside changed lines, over the line's own tag.
    static let changedWordTag = "changed-word"

    /// The words' colour: the changed lines' blue, stronger, readable over the conflicts' yellow too.
    static let changedWordBackground = "rgba(53, 132, 228, 0.38)"

    let window: Window
    let actions: ActionGroup
    /// Called once with the writer's decision.
    var finish: ((ConflictDialog.Decision) -> Void)?

    /// The choices so far.
    private(set) var choices: MergeChoices
    /// One row per change, in the list's order.
    private(set) var rows: [ConflictChangeRow] = []
    let mineBuffer: SourceBuffer
    let theirsBuffer: SourceBuffer
    let baseBuffer: SourceBuffer
    let mergedBuffer: SourceBuffer
    let mergedTitle: Text
    let baseColumn: Widget
    private let views: [TextPane: TextView]
    /// The merged result's text view.
    var mergedView: TextView { views[.merged]! }
    /// Where each body change sits in the merged text, by hunk id: marks that move with the
    /// writer's edits around them.
    private var places: [Int: (start: TextMark, end: TextMark)] = [:]
    private var scrollMarks: [TextPane: TextMark] = [:]
    private let connections = SignalConnections()

    /// The four texts the window shows.
    enum TextPane { case base, mine, theirs, merged }

    /// `copyOnKeepTheirs`: the title under which Keep Theirs keeps this device's text, when it does.
    init(base: ArticleContent, mine: ConflictDialog.Version, theirs: ConflictDialog.Version, copyOnKeepTheirs: String? = nil) throws {
        let merge = ArticleMerge(base: base, mine: mine.content, theirs: theirs.content)
        choices = MergeChoices(merge: merge)
        let builder = try Builder(resource: Quire.resourcePath + "conflicts/conflict-dialog.ui")
        window = try builder.object("conflict_window")
        baseBuffer = try builder.object("base_buffer")
        mineBuffer = try builder.object("mine_buffer")
        theirsBuffer = try builder.object("theirs_buffer")
        mergedBuffer = try builder.object("merged_buffer")
        mergedTitle = try builder.object("merged_title")
        baseColumn = try builder.object("base_column")
        views = [
            .base: try builder.object("base_view"), .mine: try builder.object("mine_view"),
            .theirs: try builder.object("theirs_view"), .merged: try builder.object("merged_view"),
        ]
        actions = ActionGroup(prefix: "conflict", on: window)

        for buffer in [baseBuffer, mineBuffer, theirsBuffer, mergedBuffer] {
            buffer.highlightMarkdown()
            buffer.followStyle(storingIn: connections)
            buffer.addLineTag(Self.changedTag, background: "rgba(53, 132, 228, 0.16)")
            buffer.addLineTag(Self.conflictingTag, background: "rgba(229, 165, 10, 0.26)")
            buffer.addCharacterTag(Self.changedWordTag, background: Self.changedWordBackground)
        }
        try builder.object("window_title", as: WindowTitle.self).subtitle = ConflictDialog.displayTitle(mine.content.title)
        try label(builder, "mine_device", mine.device)
        try label(builder, "mine_time", String(cFormat: gettext("Edited %s"), VersionTime.phrase(for: mine.time)))
        try label(builder, "theirs_device", theirs.device)
        try label(builder, "theirs_time", String(cFormat: gettext("Edited %s"), VersionTime.phrase(for: theirs.time)))
        var summary = String(cFormat: gettext("This article was changed on this device and on %s."), theirs.device)
        if let copyOnKeepTheirs { summary += " " + String(cFormat: gettext("Keep Theirs also keeps this device’s text as “%s”."), copyOnKeepTheirs) }
        try label(builder, "summary_label", summary)
        if let copyOnKeepTheirs {
            try builder.object("keep_theirs_button", as: Button.self).tooltipText =
                String(cFormat: gettext("Take the server’s version and keep this device’s text as “%s”"), copyOnKeepTheirs)
        }
        let changeCount = choices.changes.count
        try label(builder, "changes_heading", changeCount == 0 ? gettext("No Conflicting Changes") : String(cFormat: ngettext("%d Change to Decide", "%d Changes to Decide", changeCount), changeCount))
        try builder.object("keep_both_button", as: Button.self).tooltipText =
            String(cFormat: gettext("Keep the server’s version and save this device’s as “%s”"), ConflictResolution.conflictedCopyTitle(of: mine.content.title))

        try showVersions(builder, base: base, mine: mine.content, theirs: theirs.content, merge: merge)
        showMergedResult()
        try addChangeRows(builder, merge: merge, theirs: theirs.device)
        addActions()
    }

    // MARK: Building

    private func label(_ builder: Builder, _ id: String, _ text: String) throws {
        try builder.object(id, as: Label.self).text = text
    }

    private func showVersions(
        _ builder: Builder, base: ArticleContent, mine: ArticleContent, theirs: ArticleContent, merge: ArticleMerge
    ) throws {
        let body = merge.body
        show(base.body, in: baseBuffer, highlights: .base(of: body, base: base.body, mine: mine.body, theirs: theirs.body))
        show(mine.body, in: mineBuffer, highlights: .mine(of: body, base: base.body, mine: mine.body))
        show(theirs.body, in: theirsBuffer, highlights: .theirs(of: body, base: base.body, theirs: theirs.body))

        let titleConflicts = !merge.title.isClean
        for (id, title) in [("base_title", base.title), ("mine_title", mine.title), ("theirs_title", theirs.title)] {
            let label = try builder.object(id, as: Label.self)
            label.text = ConflictDialog.displayTitle(title)
            if titleConflicts {
                label.setStyleClass("quire-conflicting", on: true)
            } else if id != "base_title", title != base.title {
                label.setStyleClass("quire-changed", on: true)
            }
        }
    }

    private func show(_ text: String, in buffer: SourceBuffer, highlights: ChangeHighlights) {
        buffer.load(text)
        let lines = LineOffsets(text)
        for range in highlights.changed { buffer.applyTag(Self.changedTag, to: lines.characters(of: range)) }
        for range in highlights.conflicting { buffer.applyTag(Self.conflictingTag, to: lines.characters(of: range)) }
        for range in highlights.words { buffer.applyTag(Self.changedWordTag, to: range) }
    }

    private func showMergedResult() {
        mergedTitle.load(choices.title)
        let (text, places) = choices.body
        mergedBuffer.load(text)
        for (id, range) in places {
            // Left gravity at the start and right at the end: text put in the place stays inside it.
            self.places[id] = (mergedBuffer.addMark(at: range.lowerBound, leftGravity: true),
                               mergedBuffer.addMark(at: range.upperBound, leftGravity: false))
            mergedBuffer.applyTag(Self.conflictingTag, to: range)
        }
    }

    private func addChangeRows(_ builder: Builder, merge: ArticleMerge, theirs: String) throws {
        let list = try builder.object("changes_list", as: ListBox.self)
        for change in choices.changes {
            let row = try ConflictChangeRow(change: change, side: choices.side(for: change), merge: merge, theirs: theirs)
            row.chosen = { [weak self] side in self?.choose(side, for: change) }
            list.append(row.row)
            rows.append(row)
        }
        list.isVisible = !rows.isEmpty
        list.connect(.rowActivated) { [weak self] activated in
            guard let self, let row = self.rows.first(where: { $0.row.objectPointer == activated?.objectPointer }) else { return }
            self.reveal(row.change)
        }
    }

    private func addActions() {
        actions.addAction("keep-mine") { [weak self] in self?.finish?(.resolve(.keepMine)) }
        actions.addAction("keep-theirs") { [weak self] in self?.finish?(.resolve(.keepTheirs)) }
        actions.addAction("keep-both") { [weak self] in self?.finish?(.resolve(.keepBoth)) }
        actions.addAction("save-merged") { [weak self] in
            guard let self else { return }
            self.finish?(.resolve(.merged(self.mergedContent)))
        }
        actions.addAction("decide-later", accelerators: ["Escape"]) { [weak self] in self?.finish?(.decideLater) }
        actions.add(Action(name: "show-base", state: false) { [weak self] shown in self?.baseColumn.isVisible = shown })
    }

    // MARK: Choosing

    /// The content Save Merged saves: the merged result as it stands, edits included.
    var mergedContent: ArticleContent {
        choices.content(title: mergedTitle.text, body: mergedBuffer.text)
    }

    /// Applies a choice: the title is rebuilt from its choices, a body change's place in the
    /// merged text is replaced (one undoable edit; the writer's edits elsewhere stay).
    func choose(_ side: MergeChoices.Side, for change: MergeChoices.Change) {
        choices.choose(side, for: change)
        switch change {
        case .title:
            mergedTitle.text = choices.title
        case .body(let hunk):
            guard let place = places[hunk.id] else { return }
            let range = mergedBuffer.offset(of: place.start)..<mergedBuffer.offset(of: place.end)
            mergedBuffer.replace(range, with: MergeChoices.text(of: hunk, for: side))
            mergedBuffer.applyTag(Self.conflictingTag, to: mergedBuffer.offset(of: place.start)..<mergedBuffer.offset(of: place.end))
            reveal(change)
        case .folder, .status:
            break
        }
    }

    /// Scrolls every text to where `change` is.
    private func reveal(_ change: MergeChoices.Change) {
        guard case .body(let hunk) = change else { return }
        scroll(.base, to: LineOffsets(baseBuffer.text).characters(of: hunk.baseLines).lowerBound)
        scroll(.mine, to: LineOffsets(mineBuffer.text).characters(of: hunk.mineLines).lowerBound)
        scroll(.theirs, to: LineOffsets(theirsBuffer.text).characters(of: hunk.theirsLines).lowerBound)
        if let place = places[hunk.id] { scroll(.merged, to: mergedBuffer.offset(of: place.start)) }
    }

    private func scroll(_ pane: TextPane, to offset: Int) {
        guard let view = views[pane] else { return }
        let buffer = [TextPane.base: baseBuffer, .mine: mineBuffer, .theirs: theirsBuffer, .merged: mergedBuffer][pane]!
        // A mark, not an iterator: the view scrolls to it once its lines are laid out.
        let mark = scrollMarks[pane] ?? buffer.addMark(at: offset, leftGravity: true)
        scrollMarks[pane] = mark
        buffer.move(mark, to: offset)
        view.scroll(to: mark, alignment: (x: 0, y: 0.1))
    }
}
