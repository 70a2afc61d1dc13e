import Foundation
import GtkKit
import Library

/// The article editor: a title, the Markdown body in a GtkSourceView, live word count, undo and
/// redo, find and replace, and a status line saying whether the text is saved.
///
/// The pane knows nothing of the store. Its host loads an article with ``load(title:body:)``,
/// hears each edit of the writer through ``titleChanged`` and ``bodyChanged`` (to write the draft
/// and schedule an autosave), and reports saving through ``saveState``:
///
/// ```swift
/// let editor = try EditorPane()
/// container.append(editor.widget)
/// editor.load(title: article.title, body: article.body)
/// editor.bodyChanged = { [weak draft] body in draft?.body = body; autosave.schedule() }
/// editor.saveState = .saving
/// ```
///
/// Actions (`editor.NAME`, with shortcuts that work while the focus is inside the pane):
/// `find` (Ctrl+F), `find-replace` (Ctrl+H), `find-next` (Ctrl+G), `find-previous`
/// (Ctrl+Shift+G), `hide-search` (Escape, while the search bar is open), `undo` (Ctrl+Z),
/// `redo` (Ctrl+Shift+Z), `replace`, `replace-all` and the search options
/// `search-case-sensitive`, `search-whole-words`, `search-regex`.
///
/// Keep the pane while its widget is shown: the widgets' handlers hold it weakly.
@MainActor
public final class EditorPane {
    /// Where the writer's text stands against the store, as the status line shows it.
    public enum SaveState: Sendable, Hashable {
        /// Everything shown is saved.
        case saved
        /// A save is running.
        case saving
        /// The writer changed something that is not saved yet.
        case unsaved
    }

    /// The pane's root widget, to place in a window.
    public let widget: Widget
    /// The `editor` actions.
    public let actions: ActionGroup

    /// Called after each change the writer makes to the title, with the new title. Loading does
    /// not call it.
    public var titleChanged: (@MainActor (String) -> Void)?
    /// Called after each change the writer makes to the body, with the new body. Loading does not
    /// call it.
    public var bodyChanged: (@MainActor (String) -> Void)?

    /// The status line's save state. A change by the writer sets ``SaveState/unsaved`` before
    /// ``titleChanged`` or ``bodyChanged`` is called; the host sets the rest.
    public var saveState: SaveState = .saved {
        didSet { showSaveState() }
    }

    /// Why the article cannot be edited ("This article is in the Trash."), or nil when it can.
    /// While it is set, title and body refuse edits, undo and replace are disabled, and a banner
    /// shows the reason. Selecting, copying and finding still work.
    public var readOnlyReason: String? {
        didSet { applyReadOnly() }
    }

    /// Whether edits are refused (``readOnlyReason`` is set).
    public var isReadOnly: Bool { readOnlyReason != nil }

    /// The number of words in the body, as the status line shows it (updated shortly after
    /// each change; see ``WordCount``).
    public private(set) var wordCount = 0

    let titleText: Text
    let bodyView: TextView
    let buffer: SourceBuffer
    let search: EditorSearch
    private let scroller: ScrolledWindow
    private let readOnlyRevealer: Revealer
    private let readOnlyLabel: Label
    private let saveStateLabel: Label
    private let wordCountLabel: Label
    private let backgroundStyle = StyleSheet()
    private let connections = SignalConnections()
    private var editActions: [Action] = []
    private var isLoading = false
    private var wordCountUpdate: Timeout?
    private var marginUpdate: Timeout?

    /// Builds the pane from `editor/editor-pane.ui`, empty and editable.
    public init() throws {
        SourceBuffer.registerTypes()
        QuireResources.register()
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "editor/editor.css")
        let builder = try Builder(resource: Quire.resourcePath + "editor/editor-pane.ui")
        widget = try builder.object("editor_pane")
        titleText = try builder.object("title_text")
        bodyView = try builder.object("body_view")
        buffer = try builder.object("body_buffer")
        scroller = try builder.object("body_scroller")
        readOnlyRevealer = try builder.object("read_only_revealer")
        readOnlyLabel = try builder.object("read_only_label")
        saveStateLabel = try builder.object("save_state_label")
        wordCountLabel = try builder.object("word_count_label")
        actions = ActionGroup(prefix: "editor", on: widget)
        search = try EditorSearch(builder: builder, buffer: buffer, view: bodyView, actions: actions)

        buffer.highlightMarkdown()
        buffer.followStyle(storingIn: connections)
        widget.add(backgroundStyle)
        matchBackgroundToScheme()
        buffer.connect(.notify("style-scheme")) { [weak self] _ in self?.matchBackgroundToScheme() }

        addActions()
        connectSignals()
        showSaveState()
        showWordCount()
    }

    // MARK: Content

    /// The title as shown.
    public var title: String { titleText.text }

    /// The body as shown.
    public var body: String { buffer.text }

    /// Shows an article: replaces title and body, clears both undo histories, puts the cursor at
    /// the start of the body and marks the text saved. Neither change callback is called.
    public func load(title: String, body: String) {
        isLoading = true
        defer { isLoading = false }
        titleText.load(title)
        buffer.load(body)
        saveState = .saved
        updateWordCountNow()
    }

    /// Puts the keyboard focus in the title.
    public func focusTitle() {
        titleText.grabFocus()
    }

    /// Puts the keyboard focus in the body.
    public func focusBody() {
        bodyView.grabFocus()
    }

    // MARK: Search

    /// Whether the search bar is shown.
    public var isSearchVisible: Bool { search.isVisible }

    // MARK: Behaviour

    private func addActions() {
        actions.addAction("find", accelerators: ["<Control>f"]) { [weak self] in self?.search.show(replacing: false) }
        actions.addAction("find-replace", accelerators: ["<Control>h"]) { [weak self] in
            self?.search.show(replacing: true)
        }
        let hideSearch = actions.addAction("hide-search", accelerators: ["Escape"]) { [weak self] in self?.search.hide() }
        // Disabled while the bar is closed, so Escape reaches the window (to close a dialog, say).
        hideSearch.isEnabled = false
        search.visibilityChanged = { visible in hideSearch.isEnabled = visible }
        editActions = [
            actions.addAction("undo", accelerators: ["<Control>z"]) { [weak self] in self?.undo() },
            actions.addAction("redo", accelerators: ["<Control><Shift>z"]) { [weak self] in self?.redo() },
        ]
    }

    private func connectSignals() {
        titleText.connect(.changed) { [weak self] in
            guard let self, !self.isLoading else { return }
            self.saveState = .unsaved
            self.titleChanged?(self.title)
        }
        // Return in the title moves on to the text, as in a document's first line.
        titleText.connect(.activate) { [weak self] in
            guard let self else { return }
            self.buffer.select(0..<0)
            self.focusBody()
        }
        buffer.connect(.changed) { [weak self] in
            guard let self, !self.isLoading else { return }
            self.saveState = .unsaved
            self.scheduleWordCount()
            self.bodyChanged?(self.buffer.text)
        }
        // The text view sets its horizontal adjustment's page size to its width on every
        // allocation: the moment to recentre the text column.
        scroller.horizontalAdjustment.connect(.notify("page-size")) { [weak self] _ in self?.scheduleMarginUpdate() }
    }

    /// Undoes in the title when it has the focus, otherwise in the body.
    func undo() {
        guard !isReadOnly else { return }
        if titleHasFocus {
            titleText.activateAction("text.undo")
        } else if buffer.canUndo {
            buffer.undo()
        }
    }

    /// Redoes in the title when it has the focus, otherwise in the body.
    func redo() {
        guard !isReadOnly else { return }
        if titleHasFocus {
            titleText.activateAction("text.redo")
        } else if buffer.canRedo {
            buffer.redo()
        }
    }

    private var titleHasFocus: Bool { titleText.hasFocus }

    private func applyReadOnly() {
        bodyView.isEditable = !isReadOnly
        titleText.isEditable = !isReadOnly
        readOnlyLabel.text = readOnlyReason ?? ""
        readOnlyRevealer.revealsChild = isReadOnly
        search.setReadOnly(isReadOnly)
        for action in editActions { action.isEnabled = !isReadOnly }
    }

    // MARK: Status line

    private func showSaveState() {
        let text = switch saveState {
        case .saved: "Saved"
        case .saving: "Saving…"
        case .unsaved: "Unsaved changes"
        }
        saveStateLabel.text = text
    }

    /// The status line's save state text, as the writer reads it.
    var saveStateText: String { saveStateLabel.text }

    /// The status line's word count text, as the writer reads it.
    var wordCountText: String { wordCountLabel.text }

    /// Counts after a short pause, so a burst of typing in a long article counts once.
    private func scheduleWordCount() {
        guard wordCountUpdate?.isPending != true else { return }
        wordCountUpdate = Timeout(milliseconds: 150) { [weak self] in self?.updateWordCountNow() }
    }

    private func updateWordCountNow() {
        wordCountUpdate?.cancel()
        wordCount = ArticleText.wordCount(of: buffer.text)
        showWordCount()
    }

    private func showWordCount() {
        let number = NumberFormatter.localizedString(from: NSNumber(value: wordCount), number: .decimal)
        wordCountLabel.text = wordCount == 1 ? "1 word" : "\(number) words"
    }

    // MARK: Layout

    /// The widest text column, in characters of the body's font: a comfortable line length.
    private static let columnCharacters = 80

    /// Title and body share side margins that centre a column of at most ``columnCharacters``
    /// characters, as GNOME writing apps do, with at least a small margin on narrow windows.
    private func scheduleMarginUpdate() {
        guard marginUpdate?.isPending != true else { return }
        // Not during the allocation that reported the width: changing margins queues a resize.
        marginUpdate = Timeout(milliseconds: 0) { [weak self] in self?.updateMargins() }
    }

    private func updateMargins() {
        let width = bodyView.width
        guard width > 0 else { return }
        let column = bodyView.size(ofText: String(repeating: "0", count: 10)).width * Self.columnCharacters / 10
        let minimum = width < 600 ? 18 : 36
        let margin = max(minimum, (width - column) / 2)
        guard bodyView.leftMargin != margin else { return }
        bodyView.leftMargin = margin
        bodyView.rightMargin = margin
        titleText.marginStart = margin
        titleText.marginEnd = margin
    }

    /// The left and right margin of the text column, in pixels.
    var textMargin: Int { bodyView.leftMargin }

    /// Paints the whole pane in the style scheme's text background, so title and status line
    /// sit on the same surface as the text.
    private func matchBackgroundToScheme() {
        let css = buffer.schemeBackground.map { ".quire-editor-pane { background-color: \($0); }" } ?? ""
        backgroundStyle.load(css: css)
    }
}
