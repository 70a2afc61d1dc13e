import CGtkSource
import GtkKit
import Platform

/// The editor's find and replace: the search bar of `EditorPane.ui` over a
/// `GtkSourceSearchContext`, which finds, counts and highlights matches as the writer types and
/// keeps them current while the text changes. The search context is GtkSourceView's, called
/// here directly (see ``SourceBuffer``); the widgets are GtkKit's.
///
/// Its actions live in the pane's `editor` group: `find-next`, `find-previous`, `replace`,
/// `replace-all`, and the toggles `search-case-sensitive`, `search-whole-words`, `search-regex`.
@MainActor
final class EditorSearch {
    private let bar: SearchBar
    private let entry: SearchEntry
    private let matchLabel: Label
    private let replaceToggle: ToggleButton
    private let replaceRevealer: Revealer
    private let replaceEntry: Entry
    private let buffer: SourceBuffer
    private let view: TextView
    private let settings: Object
    private let context: Object
    private let connections = SignalConnections()
    private var replaceActions: [Action] = []
    private var isReadOnly = false
    /// Called with the bar's visibility whenever it changes (the pane enables `hide-search`).
    var visibilityChanged: ((Bool) -> Void)?

    init(builder: Builder, buffer: SourceBuffer, view: TextView, actions: ActionGroup) throws {
        bar = try builder.object("search_bar")
        entry = try builder.object("search_entry")
        matchLabel = try builder.object("match_label")
        replaceToggle = try builder.object("replace_toggle")
        replaceRevealer = try builder.object("replace_revealer")
        replaceEntry = try builder.object("replace_entry")
        self.buffer = buffer
        self.view = view
        let settings = Object(owning: gtk_source_search_settings_new())
        gtk_source_search_settings_set_wrap_around(settings.pointer(), 1)
        self.settings = settings
        context = Object(owning: gtk_source_search_context_new(buffer.sourceBuffer, settings.pointer()))
        bar.connect(entry: entry)

        entry.connect(.searchChanged) { [weak self] in self?.searchTextChanged() }
        entry.connect(.activate) { [weak self] in self?.findNext() }
        entry.connect(.nextMatch) { [weak self] in self?.findNext() }
        entry.connect(.previousMatch) { [weak self] in self?.findPrevious() }
        replaceEntry.connect(.activate) { [weak self] in self?.replace() }
        replaceToggle.connect(.toggled) { [weak self] in self?.revealReplace() }
        bar.connect(.notify("search-mode-enabled")) { [weak self] _ in self?.searchModeChanged() }
        context.connect(.notify("occurrences-count")) { [weak self] _ in self?.updateMatchLabel() }
        // The cursor moving onto or off a match changes "2 of 7" into "7 matches" and back.
        buffer.connect(.notify("cursor-position")) { [weak self] _ in
            guard let self, self.isVisible else { return }
            self.updateMatchLabel()
        }.store(in: connections)

        actions.addAction("find-next", accelerators: ["<Control>g"]) { [weak self] in self?.findNext() }
        actions.addAction("find-previous", accelerators: ["<Control><Shift>g"]) { [weak self] in self?.findPrevious() }
        replaceActions = [
            actions.addAction("replace") { [weak self] in self?.replace() },
            actions.addAction("replace-all") { [weak self] in self?.replaceAll() },
        ]
        actions.add(Action(name: "search-case-sensitive", state: false) { [weak self] on in
            guard let self else { return }
            gtk_source_search_settings_set_case_sensitive(self.settingsPointer, on ? 1 : 0)
        })
        actions.add(Action(name: "search-whole-words", state: false) { [weak self] on in
            guard let self else { return }
            gtk_source_search_settings_set_at_word_boundaries(self.settingsPointer, on ? 1 : 0)
        })
        actions.add(Action(name: "search-regex", state: false) { [weak self] on in
            guard let self else { return }
            gtk_source_search_settings_set_regex_enabled(self.settingsPointer, on ? 1 : 0)
            self.updateMatchLabel()
        })
        // Matches are highlighted only while the bar is open.
        gtk_source_search_context_set_highlight(contextPointer, 0)
    }

    private var settingsPointer: UnsafeMutablePointer<GtkSourceSearchSettings> { settings.pointer() }
    private var contextPointer: OpaquePointer { context.opaquePointer }

    // MARK: State

    /// Whether the search bar is shown.
    var isVisible: Bool { bar.isSearchModeEnabled }

    /// Whether the replace row is shown.
    var isReplaceVisible: Bool { replaceToggle.isActive }

    /// The text searched for.
    var searchText: String {
        get { entry.text }
        set { entry.text = newValue }
    }

    /// The replacement text.
    var replacementText: String {
        get { replaceEntry.text }
        set { replaceEntry.text = newValue }
    }

    /// How many matches the text holds; nil while GtkSourceView is still counting them (it
    /// scans in idle steps) or when nothing is searched.
    var matchCount: Int? {
        let count = gtk_source_search_context_get_occurrences_count(contextPointer)
        return count < 0 || searchText.isEmpty ? nil : Int(count)
    }

    /// What the match label shows: "2 of 7", "7 matches", "No matches", or why the pattern is wrong.
    var matchSummary: String { matchLabel.text }

    /// Whether the search entry is marked as failing (no match, or a bad pattern).
    var showsError: Bool { entry.hasStyleClass("error") }

    /// Read-only text cannot be replaced: the replace row and its actions are disabled.
    func setReadOnly(_ readOnly: Bool) {
        isReadOnly = readOnly
        for action in replaceActions { action.isEnabled = !readOnly }
        replaceToggle.isSensitive = !readOnly
        if readOnly { replaceToggle.isActive = false }
    }

    // MARK: Showing and hiding

    /// Shows the bar with the replace row or without, seeds it with the selection if that is a
    /// single line, and puts the focus in the search entry.
    func show(replacing: Bool) {
        let selection = buffer.selection
        if !selection.isEmpty {
            let selected = buffer.text(in: selection)
            if !selected.contains("\n") { searchText = selected }
        }
        bar.isSearchModeEnabled = true
        replaceToggle.isActive = replacing && !isReadOnly
        entry.grabFocus()
        entry.selectAll()
    }

    /// Hides the bar; the focus returns to the text.
    func hide() {
        bar.isSearchModeEnabled = false
    }

    private func searchModeChanged() {
        let visible = isVisible
        gtk_source_search_context_set_highlight(contextPointer, visible ? 1 : 0)
        visibilityChanged?(visible)
        if visible {
            applySearchText()
        } else {
            view.grabFocus()
        }
    }

    private func revealReplace() {
        replaceRevealer.revealsChild = isReplaceVisible
        if isReplaceVisible, isVisible { replaceEntry.grabFocus() }
    }

    // MARK: Finding

    private func searchTextChanged() {
        applySearchText()
        // Incremental search: the first match at or after the selection's start.
        guard !searchText.isEmpty else { return }
        select(match(forwardFrom: buffer.iter(at: buffer.selection.lowerBound)))
    }

    private func applySearchText() {
        gtk_source_search_settings_set_search_text(settingsPointer, searchText.isEmpty ? nil : searchText)
        updateMatchLabel()
    }

    /// Selects the next match after the selection, wrapping around at the end.
    func findNext() {
        guard !searchText.isEmpty else { return show(replacing: false) }
        select(match(forwardFrom: buffer.iter(at: buffer.selection.upperBound)))
    }

    /// Selects the match before the selection, wrapping around at the start.
    func findPrevious() {
        guard !searchText.isEmpty else { return show(replacing: false) }
        var start = buffer.iter(at: buffer.selection.lowerBound)
        var matchStart = GtkTextIter()
        var matchEnd = GtkTextIter()
        var wrapped: gboolean = 0
        guard gtk_source_search_context_backward(contextPointer, &start, &matchStart, &matchEnd, &wrapped) != 0 else {
            return
        }
        select(matchStart.offset..<matchEnd.offset)
    }

    private func match(forwardFrom iter: GtkTextIter) -> Range<Int>? {
        var start = iter
        var matchStart = GtkTextIter()
        var matchEnd = GtkTextIter()
        var wrapped: gboolean = 0
        guard gtk_source_search_context_forward(contextPointer, &start, &matchStart, &matchEnd, &wrapped) != 0 else {
            return nil
        }
        return matchStart.offset..<matchEnd.offset
    }

    private func select(_ match: Range<Int>?) {
        guard let match else { return updateMatchLabel() }
        buffer.select(match)
        view.scroll(to: buffer.cursorMark, margin: 0.2)
        updateMatchLabel()
    }

    /// The position of the selection among the matches (from 1), 0 when it is not a match, -1
    /// while counting.
    private var selectedMatchPosition: Int {
        let selection = buffer.selection
        guard !selection.isEmpty else { return 0 }
        var start = buffer.iter(at: selection.lowerBound)
        var end = buffer.iter(at: selection.upperBound)
        return Int(gtk_source_search_context_get_occurrence_position(contextPointer, &start, &end))
    }

    private func updateMatchLabel() {
        var summary = ""
        var isError = false
        if let error = gtk_source_search_context_get_regex_error(contextPointer).map({ GLibError(consuming: $0, operation: "searching") }) {
            summary = gettext("Invalid pattern")
            entry.tooltipText = error.message
            isError = true
        } else if let count = matchCount {
            entry.tooltipText = nil
            let position = selectedMatchPosition
            if count == 0 {
                summary = gettext("No matches")
                isError = true
            } else if position > 0 {
                summary = String(cFormat: gettext("%1$d of %2$d"), position, count)
            } else {
                summary = String(cFormat: ngettext("%d match", "%d matches", count), count)
            }
        }
        matchLabel.text = summary
        entry.setStyleClass("error", on: isError)
    }

    // MARK: Replacing

    /// Replaces the selected match and selects the next one; selects the next match first when
    /// the selection is not one. Reports a bad replacement pattern in the match label.
    func replace() {
        guard !isReadOnly, !searchText.isEmpty else { return }
        let selection = buffer.selection
        guard selectedMatchPosition > 0 else { return findNext() }
        var start = buffer.iter(at: selection.lowerBound)
        var end = buffer.iter(at: selection.upperBound)
        do {
            try GLibError.catching("replacing a match") { error in
                gtk_source_search_context_replace(contextPointer, &start, &end, replacementText, -1, error)
            }
        } catch {
            return showReplaceError(error)
        }
        replaceEntry.tooltipText = nil
        buffer.select(end.offset..<end.offset)
        findNext()
    }

    /// Replaces every match as one undoable edit and returns how many were replaced.
    @discardableResult
    func replaceAll() -> Int {
        guard !isReadOnly, !searchText.isEmpty else { return 0 }
        let count: UInt32
        do {
            count = try GLibError.catching("replacing every match") { error in
                gtk_source_search_context_replace_all(contextPointer, replacementText, -1, error)
            }
        } catch {
            showReplaceError(error)
            return 0
        }
        replaceEntry.tooltipText = nil
        updateMatchLabel()
        return Int(count)
    }

    /// Shows why the replacement pattern is wrong: GLib's sentence about the regular expression.
    private func showReplaceError(_ error: GLibError) {
        matchLabel.text = gettext("Invalid replacement")
        replaceEntry.tooltipText = error.message
    }
}
