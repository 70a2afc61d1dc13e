import CGtk
import CGtkSource
import GtkKit

/// The editor's find and replace: the search bar of `EditorPane.ui` over a
/// `GtkSourceSearchContext`, which finds, counts and highlights matches as the writer types and
/// keeps them current while the text changes.
///
/// Its actions live in the pane's `editor` group: `find-next`, `find-previous`, `replace`,
/// `replace-all`, and the toggles `search-case-sensitive`, `search-whole-words`, `search-regex`.
@MainActor
final class EditorSearch {
    private let bar: Widget
    private let entry: Widget
    private let matchLabel: Widget
    private let replaceToggle: Widget
    private let replaceRevealer: Widget
    private let replaceEntry: Widget
    private let buffer: SourceBuffer
    private let view: Widget
    private let settings: Object
    private let context: Object
    private let connections = SignalConnections()
    private var replaceActions: [Action] = []
    private var isReadOnly = false
    /// Called with the bar's visibility whenever it changes (the pane enables `hide-search`).
    var visibilityChanged: ((Bool) -> Void)?

    init(builder: Builder, buffer: SourceBuffer, view: Widget, actions: ActionGroup) throws {
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
        gtk_search_bar_connect_entry(bar.opaquePointer, entry.opaquePointer)

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
    var isVisible: Bool { gtk_search_bar_get_search_mode(bar.opaquePointer) != 0 }

    /// Whether the replace row is shown.
    var isReplaceVisible: Bool { gtk_toggle_button_get_active(replaceToggle.pointer()) != 0 }

    /// The text searched for.
    var searchText: String {
        get { String(cString: gtk_editable_get_text(entry.opaquePointer)) }
        set { gtk_editable_set_text(entry.opaquePointer, newValue) }
    }

    /// The replacement text.
    var replacementText: String {
        get { String(cString: gtk_editable_get_text(replaceEntry.opaquePointer)) }
        set { gtk_editable_set_text(replaceEntry.opaquePointer, newValue) }
    }

    /// How many matches the text holds; nil while GtkSourceView is still counting them (it
    /// scans in idle steps) or when nothing is searched.
    var matchCount: Int? {
        let count = gtk_source_search_context_get_occurrences_count(contextPointer)
        return count < 0 || searchText.isEmpty ? nil : Int(count)
    }

    /// What the match label shows: "2 of 7", "7 matches", "No matches", or why the pattern is wrong.
    var matchSummary: String { String(cString: gtk_label_get_label(matchLabel.opaquePointer)) }

    /// Whether the search entry is marked as failing (no match, or a bad pattern).
    var showsError: Bool { gtk_widget_has_css_class(entry.widgetPointer, "error") != 0 }

    /// Read-only text cannot be replaced: the replace row and its actions are disabled.
    func setReadOnly(_ readOnly: Bool) {
        isReadOnly = readOnly
        for action in replaceActions { action.isEnabled = !readOnly }
        gtk_widget_set_sensitive(replaceToggle.widgetPointer, readOnly ? 0 : 1)
        if readOnly { gtk_toggle_button_set_active(replaceToggle.pointer(), 0) }
    }

    // MARK: Showing and hiding

    /// Shows the bar with the replace row or without, seeds it with the selection if that is a
    /// single line, and puts the focus in the search entry.
    func show(replacing: Bool) {
        let selection = buffer.selection
        if !selection.isEmpty {
            let selected = buffer.text(from: buffer.iter(at: selection.lowerBound), to: buffer.iter(at: selection.upperBound))
            if !selected.contains("\n") { searchText = selected }
        }
        gtk_search_bar_set_search_mode(bar.opaquePointer, 1)
        gtk_toggle_button_set_active(replaceToggle.pointer(), replacing && !isReadOnly ? 1 : 0)
        gtk_widget_grab_focus(entry.widgetPointer)
        gtk_editable_select_region(entry.opaquePointer, 0, -1)
    }

    /// Hides the bar; the focus returns to the text.
    func hide() {
        gtk_search_bar_set_search_mode(bar.opaquePointer, 0)
    }

    private func searchModeChanged() {
        let visible = isVisible
        gtk_source_search_context_set_highlight(contextPointer, visible ? 1 : 0)
        visibilityChanged?(visible)
        if visible {
            applySearchText()
        } else {
            gtk_widget_grab_focus(view.widgetPointer)
        }
    }

    private func revealReplace() {
        gtk_revealer_set_reveal_child(replaceRevealer.opaquePointer, isReplaceVisible ? 1 : 0)
        if isReplaceVisible, isVisible { gtk_widget_grab_focus(replaceEntry.widgetPointer) }
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
        select((Int(gtk_text_iter_get_offset(&matchStart))..<Int(gtk_text_iter_get_offset(&matchEnd))))
    }

    private func match(forwardFrom iter: GtkTextIter) -> Range<Int>? {
        var start = iter
        var matchStart = GtkTextIter()
        var matchEnd = GtkTextIter()
        var wrapped: gboolean = 0
        guard gtk_source_search_context_forward(contextPointer, &start, &matchStart, &matchEnd, &wrapped) != 0 else {
            return nil
        }
        return Int(gtk_text_iter_get_offset(&matchStart))..<Int(gtk_text_iter_get_offset(&matchEnd))
    }

    private func select(_ match: Range<Int>?) {
        guard let match else { return updateMatchLabel() }
        buffer.select(match)
        gtk_text_view_scroll_to_mark(
            view.pointer(as: GtkTextView.self), gtk_text_buffer_get_insert(buffer.textBuffer), 0.2, 0, 0, 0)
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
        if let error = gtk_source_search_context_get_regex_error(contextPointer) {
            summary = "Invalid pattern"
            gtk_widget_set_tooltip_text(entry.widgetPointer, String(cString: error.pointee.message))
            g_error_free(error)
            isError = true
        } else if let count = matchCount {
            gtk_widget_set_tooltip_text(entry.widgetPointer, nil)
            let position = selectedMatchPosition
            if count == 0 {
                summary = "No matches"
                isError = true
            } else if position > 0 {
                summary = "\(position) of \(count)"
            } else {
                summary = count == 1 ? "1 match" : "\(count) matches"
            }
        }
        gtk_label_set_label(matchLabel.opaquePointer, summary)
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
        var error: UnsafeMutablePointer<GError>?
        gtk_source_search_context_replace(contextPointer, &start, &end, replacementText, -1, &error)
        if let error { return showReplaceError(error) }
        gtk_widget_set_tooltip_text(replaceEntry.widgetPointer, nil)
        buffer.select(Int(gtk_text_iter_get_offset(&end))..<Int(gtk_text_iter_get_offset(&end)))
        findNext()
    }

    /// Replaces every match as one undoable edit and returns how many were replaced.
    @discardableResult
    func replaceAll() -> Int {
        guard !isReadOnly, !searchText.isEmpty else { return 0 }
        var error: UnsafeMutablePointer<GError>?
        let count = gtk_source_search_context_replace_all(contextPointer, replacementText, -1, &error)
        if let error {
            showReplaceError(error)
            return 0
        }
        gtk_widget_set_tooltip_text(replaceEntry.widgetPointer, nil)
        updateMatchLabel()
        return Int(count)
    }

    private func showReplaceError(_ error: UnsafeMutablePointer<GError>) {
        gtk_label_set_label(matchLabel.opaquePointer, "Invalid replacement")
        gtk_widget_set_tooltip_text(replaceEntry.widgetPointer, String(cString: error.pointee.message))
        g_error_free(error)
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkSearchEntry::search-changed`, after a short pause in typing.
    static var searchChanged: Self { Self("search-changed") }
    /// `GtkSearchEntry::next-match` (Ctrl+G in the entry).
    static var nextMatch: Self { Self("next-match") }
    /// `GtkSearchEntry::previous-match` (Ctrl+Shift+G in the entry).
    static var previousMatch: Self { Self("previous-match") }
    /// `GtkToggleButton::toggled`.
    static var toggled: Self { Self("toggled") }
}
