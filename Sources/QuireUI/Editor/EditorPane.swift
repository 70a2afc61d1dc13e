import Foundation
import GtkKit
import Library
import Platform

/// The article editor: a title, the Markdown body in a GtkSourceView, live word count, undo and
/// redo, find and replace, and a status line saying whether the text is saved.
///
/// The pane knows nothing of the store. Its host loads an article with ``load(title:body:)``,
/// hears each edit of the writer through ``titleChanged`` and ``bodyChanged`` (to schedule an
/// autosave, reading ``body`` when it saves), and reports saving through ``saveState``:
///
/// ```swift
/// let editor = try EditorPane()
/// container.append(editor.widget)
/// editor.load(title: article.title, body: article.body)
/// editor.bodyChanged = { autosave.schedule() }   // the save reads editor.body
/// editor.saveState = .saving
/// ```
///
/// Beside the text, the live preview (``ArticlePreview``) shows the article rendered as the HTML
/// export renders it: side by side on a wide pane, instead of the text on a narrow one, each
/// following the other's scrolling. The status line counts words, characters and reading time
/// (and the selection's words), and an outline of the headings jumps to one.
///
/// Actions (`editor.NAME`, with shortcuts that work while the focus is inside the pane):
/// `find` (Ctrl+F), `find-replace` (Ctrl+H), `find-next` (Ctrl+G), `find-previous`
/// (Ctrl+Shift+G), `hide-search` (Escape, while the search bar is open), `undo` (Ctrl+Z),
/// `redo` (Ctrl+Shift+Z), `replace`, `replace-all` and the search options
/// `search-case-sensitive`, `search-whole-words`, `search-regex`; `preview` (Ctrl+Shift+P), and
/// the Markdown aids of `EditorPane+Markdown.swift`: `bold` (Ctrl+B), `italic` (Ctrl+I), `code`
/// (Ctrl+`), `strikethrough` (Ctrl+D), `link` (Ctrl+K), `heading-0` to `heading-6` (Ctrl+0…6),
/// `outline` (Ctrl+Shift+O). Pasted and dropped images and files become attachments
/// (``EditorAttachments``). Return
/// continues a list or quote, Tab and Shift+Tab indent a list item.
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
    /// Called after each change the writer makes to the body. Loading does not call it. The text
    /// is not handed over: a book-length body is a megabyte to copy out of the buffer, too much
    /// for every keystroke; read ``body`` when it is needed (to save, after a pause).
    public var bodyChanged: (@MainActor () -> Void)?

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
    public internal(set) var wordCount = 0

    /// How the text is shown (Preferences › Editor); applied at once.
    var appearance = EditorAppearance() {
        didSet { if appearance != oldValue { applyAppearance() } }
    }

    /// Called when the writer shows or hides the preview beside the text (to remember it).
    var previewVisibilityChanged: (@MainActor (Bool) -> Void)?
    /// Called when a rendering of the preview is on screen, with the time since the edit or the
    /// load it shows, in milliseconds, and whether it is the first rendering of a loaded article
    /// (`QUIRE_REPORT_PREVIEW` prints these for `quire-bench editor`).
    var previewShownAfter: (@MainActor (_ milliseconds: Double, _ afterLoad: Bool) -> Void)?

    let titleField: TitleField
    let bodyView: TextView
    let buffer: SourceBuffer
    let search: EditorSearch
    /// Spell checking of the body (``BodySpelling``).
    let spelling: BodySpelling
    let scroller: ScrolledWindow
    private let readOnlyRevealer: Revealer
    private let readOnlyLabel: Label
    private let saveStateLabel: Label
    let wordCountLabel: Label
    let characterCountLabel: Label
    let readingTimeLabel: Label
    let selectionLabel: Label
    let outlineButton: MenuButton
    let linkButton: MenuButton
    let textColumn: Widget
    let titleClamp: Clamp
    let bodyClamp: ClampScrollable
    let previewSlot: Box
    let previewSeparator: Widget
    let widthWatch = WidthWatch()
    private let backgroundStyle = StyleSheet()
    let fontStyle = StyleSheet()
    let connections = SignalConnections()
    private var editActions: [Action] = []
    var isLoading = false
    var wordCountUpdate: Timeout?
    /// Raised for every count started, so that a count finishing after a newer one began is dropped.
    var wordCountGeneration = 0
    /// Counts running off the main thread (tests wait for none).
    var wordCountsRunning = 0
    var marginUpdate: Timeout?
    var previewUpdate: Timeout?
    var focusUpdate: Timeout?
    /// The preview, made the first time it is shown (its web process costs a start-up).
    var preview: ArticlePreview?
    /// Whether the writer wants the preview beside the text (on a wide pane).
    var previewBeside = false
    /// Whether a narrow pane shows the preview instead of the text.
    var previewInstead = false
    /// The pane's width, from ``widthWatch``.
    var paneWidth = 0
    /// Whether the window is too narrow for every count in the status line (``foldStatus(_:)``).
    var isStatusFolded = false
    /// Until when the preview leads scrolling (the writer scrolled it), so that the editor's
    /// following does not scroll it back.
    var previewLeadsUntil = ContinuousClock.now
    /// When the text last changed (or was loaded), and whether by a load, for ``previewShownAfter``.
    var lastChange = (time: ContinuousClock.now, isLoad: true)
    /// The preview rendering that shows the last change.
    var latestRendering = 0
    /// The preview rendering last drawn (``latestRendering`` once the preview is up to date).
    var shownRendering = 0
    /// When the host began opening the article that ``load(title:body:)`` shows (the time
    /// ``previewShownAfter`` counts from for it).
    var openStarted: ContinuousClock.Instant?
    /// Whether focus mode hides the status line and the preview.
    var isInFocusMode = false
    let statusBar: Widget
    var linkPopover: LinkPopover?
    var outline: OutlinePopover?
    /// Pasted, dropped and inserted files and images (``EditorAttachments``).
    let attachments: EditorAttachments

    /// Builds the pane from `editor/editor-pane.ui`, empty and editable.
    public init() throws {
        SourceBuffer.registerTypes()
        QuireResources.register()
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "editor/editor.css")
        let builder = try Builder(resource: Quire.resourcePath + "editor/editor-pane.ui")
        widget = try builder.object("editor_pane")
        titleField = try TitleField(builder: builder)
        bodyView = try builder.object("body_view")
        buffer = try builder.object("body_buffer")
        scroller = try builder.object("body_scroller")
        readOnlyRevealer = try builder.object("read_only_revealer")
        readOnlyLabel = try builder.object("read_only_label")
        saveStateLabel = try builder.object("save_state_label")
        wordCountLabel = try builder.object("word_count_label")
        characterCountLabel = try builder.object("character_count_label")
        readingTimeLabel = try builder.object("reading_time_label")
        selectionLabel = try builder.object("selection_label")
        outlineButton = try builder.object("outline_button")
        linkButton = try builder.object("link_button")
        textColumn = try builder.object("text_column")
        titleClamp = try builder.object("title_clamp")
        bodyClamp = try builder.object("body_clamp")
        statusBar = try builder.object("status_bar")
        previewSlot = try builder.object("preview_slot")
        previewSeparator = try builder.object("preview_separator")
        actions = ActionGroup(prefix: "editor", on: widget)
        search = try EditorSearch(builder: builder, buffer: buffer, view: bodyView, actions: actions)
        spelling = BodySpelling(buffer: buffer, view: bodyView, actions: actions, connections: connections)
        attachments = EditorAttachments(view: bodyView, buffer: buffer)

        buffer.followStyle(storingIn: connections)
        widget.add(backgroundStyle)
        bodyView.add(fontStyle)
        matchBackgroundToScheme()
        buffer.connect(.notify("style-scheme")) { [weak self] _ in self?.matchBackgroundToScheme() }
        try builder.object("editor_pane", as: Box.self).append(widthWatch)
        widthWatch.widthChanged = { [weak self] width in self?.paneWidthChanged(width) }

        addActions()
        addMarkdownActions()
        addPreviewAction()
        connectSignals()
        connectFocusAids()
        showSaveState()
        applyAppearance()
    }

    // MARK: Content

    /// The title as shown.
    public var title: String { titleField.text }

    /// The body as shown.
    public var body: String { buffer.text }

    /// Shows an article: replaces title and body, clears both undo histories, puts the cursor at
    /// the start of the body and marks the text saved. Neither change callback is called.
    public func load(title: String, body: String) {
        isLoading = true
        defer { isLoading = false }
        titleField.load(title)
        // Usually set already (``prepareHighlighting()``); an article opened before the window
        // was idle pays the language's parse here. (The spell checker's dictionary opens off the
        // main thread with the first check: ``BodySpelling``.)
        buffer.highlightMarkdown()
        buffer.load(body)
        saveState = .saved
        updateWordCountNow()
        lastChange = (openStarted ?? ContinuousClock.now, true)
        openStarted = nil
        updatePreviewNow()
    }

    /// Highlights Markdown in the editor from now on, before any article is loaded. The first
    /// time in the process, GtkSourceView parses markdown.lang and validates it against its
    /// RelaxNG schema (about 90 ms), on the main thread: not when the pane is made, which every
    /// start would wait for before its first rows, nor in the first ``load(title:body:)``, which
    /// the writer's first click would wait for, but when the window is idle after its start
    /// (``MainWindow``). Later calls change nothing.
    public func prepareHighlighting() {
        buffer.highlightMarkdown()
    }

    /// Puts the keyboard focus in the title.
    public func focusTitle() {
        titleField.view.grabFocus()
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
        titleField.buffer.connect(.changed) { [weak self] in
            guard let self, !self.isLoading else { return }
            self.saveState = .unsaved
            self.lastChange = (ContinuousClock.now, false)
            self.schedulePreviewUpdate()
            self.titleChanged?(self.title)
        }
        // Return in the title moves on to the text, as in a document's first line.
        titleField.returnPressed = { [weak self] in
            guard let self else { return }
            self.buffer.select(0..<0)
            self.focusBody()
        }
        buffer.connect(.changed) { [weak self] in
            guard let self, !self.isLoading else { return }
            self.saveState = .unsaved
            self.lastChange = (ContinuousClock.now, false)
            self.scheduleWordCount()
            self.schedulePreviewUpdate()
            self.bodyChanged?()
        }
        // The text view sets its horizontal adjustment's page size to its width on every
        // allocation: the moment to recentre the text column.
        scroller.horizontalAdjustment.connect(.notify("page-size")) { [weak self] _ in self?.scheduleMarginUpdate() }
    }

    /// Undoes in the title when it has the focus, otherwise in the body.
    func undo() {
        guard !isReadOnly else { return }
        if titleHasFocus {
            if titleField.buffer.canUndo { titleField.buffer.undo() }
        } else if buffer.canUndo {
            buffer.undo()
        }
    }

    /// Redoes in the title when it has the focus, otherwise in the body.
    func redo() {
        guard !isReadOnly else { return }
        if titleHasFocus {
            if titleField.buffer.canRedo { titleField.buffer.redo() }
        } else if buffer.canRedo {
            buffer.redo()
        }
    }

    private var titleHasFocus: Bool { titleField.view.hasFocus }

    private func applyReadOnly() {
        bodyView.isEditable = !isReadOnly
        titleField.view.isEditable = !isReadOnly
        readOnlyLabel.text = readOnlyReason ?? ""
        readOnlyRevealer.revealsChild = isReadOnly
        search.setReadOnly(isReadOnly)
        for action in editActions { action.isEnabled = !isReadOnly }
    }

    // MARK: Status line

    private func showSaveState() {
        let text = switch saveState {
        case .saved: gettext("Saved")
        case .saving: gettext("Saving…")
        case .unsaved: gettext("Unsaved changes")
        }
        saveStateLabel.text = text
    }

    /// The status line's save state text, as the writer reads it.
    var saveStateText: String { saveStateLabel.text }

    /// Paints the whole pane in the style scheme's text background, so title and status line
    /// sit on the same surface as the text.
    private func matchBackgroundToScheme() {
        let css = buffer.schemeBackground.map { ".quire-editor-pane { background-color: \($0); }" } ?? ""
        backgroundStyle.load(css: css)
    }
}
