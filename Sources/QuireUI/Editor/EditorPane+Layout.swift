import Foundation
import GtkKit
import Library

/// The editor's layout: the text column's font, spacing and width (``EditorAppearance``), and
/// where the preview goes: beside the text on a pane wide enough for both, instead of the text
/// on a narrower one (Ctrl+Shift+P toggles either), with the two scrolled together.
extension EditorPane {
    /// The narrowest pane that shows text and preview side by side, in pixels.
    static let sideBySideWidth = 640

    /// Whether the preview is on screen (beside the text or instead of it).
    var isPreviewShown: Bool { previewSlot.isVisible }

    /// Whether the pane is wide enough for text and preview side by side.
    var isWide: Bool { paneWidth == 0 || paneWidth >= Self.sideBySideWidth }

    func addPreviewAction() {
        // The state follows what is shown (``arrangePreview()``), which a toggle may not change
        // the way it asks (on a narrow pane it swaps text and preview).
        let toggle = Action(name: "preview", state: false) { [weak self] _ in self?.togglePreview() }
        actions.add(toggle, accelerators: ["<Control><Shift>p"])
    }

    /// Ctrl+Shift+P: on a wide pane shows or hides the preview beside the text (and remembers
    /// it); on a narrow one switches between text and preview.
    func togglePreview() {
        if isWide {
            previewBeside.toggle()
            previewVisibilityChanged?(previewBeside)
        } else {
            previewInstead.toggle()
        }
        arrangePreview()
        // The keyboard follows what a narrow pane swapped in.
        if !textColumn.isVisible, let preview { preview.widget.grabFocus() } else if textColumn.isVisible { focusBody() }
    }

    /// Shows the preview beside the text on a wide pane, as the writer last chose.
    func setPreviewBeside(_ beside: Bool) {
        guard previewBeside != beside else { return }
        previewBeside = beside
        arrangePreview()
    }

    /// Under this width the status line keeps the save state and the word count: a pane with
    /// every count needs about 490 pixels, a window can be 360.
    static let fullStatusWidth = 560

    /// Keeps the status line to the save state and the word count whatever the pane's width, for
    /// a narrow window: a folded window's pane that is not shown keeps its last (wide) width,
    /// and its every count would keep the window from getting narrower than about 500 pixels.
    public func foldStatus(_ folded: Bool) {
        guard folded != isStatusFolded else { return }
        isStatusFolded = folded
        showCounts(characters: buffer.characterCount)
    }

    func paneWidthChanged(_ width: Int) {
        guard width != paneWidth else { return }
        let wasWide = isWide
        paneWidth = width
        if wasWide != isWide { arrangePreview() }
        showCounts(characters: buffer.characterCount)
    }

    /// Focus mode: only the text, without status line or preview.
    func setFocusMode(_ on: Bool) {
        isInFocusMode = on
        statusBar.isVisible = !on
        arrangePreview()
    }

    /// Puts text and preview where the pane's width and the writer's choice say.
    func arrangePreview() {
        let showsPreview = !isInFocusMode && (isWide ? previewBeside : previewInstead)
        let showsText = isInFocusMode || isWide || !previewInstead
        if showsPreview && preview == nil { makePreview() }
        previewSlot.isVisible = showsPreview
        previewSeparator.isVisible = showsPreview && showsText
        textColumn.isVisible = showsText
        actions.action(named: "preview")?.setState(showsPreview)
        if showsPreview { updatePreviewNow() }
    }

    private func makePreview() {
        let preview = ArticlePreview()
        previewSlot.append(preview.widget)
        preview.scrolled = { [weak self] line, fraction in self?.previewScrolled(toLine: line, fraction: fraction) }
        preview.shown = { [weak self] number in self?.previewShown(number) }
        preview.readAttachment = { [weak self] reference in await self?.attachments.store?.find(reference) }
        self.preview = preview
        scroller.verticalAdjustment.connect(.notify("value")) { [weak self] _ in self?.editorScrolled() }.store(in: connections)
    }

    // MARK: Preview updates

    /// Renders the preview after a short pause in typing.
    func schedulePreviewUpdate() {
        guard isPreviewShown else { return }
        previewUpdate?.cancel()
        previewUpdate = Timeout(milliseconds: 60) { [weak self] in self?.updatePreviewNow() }
    }

    func updatePreviewNow() {
        previewUpdate?.cancel()
        guard let preview, isPreviewShown else { return }
        latestRendering = preview.show(title: title, body: buffer.text, topLine: bodyView.topVisibleLine)
    }

    private func previewShown(_ number: Int) {
        shownRendering = number
        guard number == latestRendering else { return }
        let elapsed = ContinuousClock.now - lastChange.time
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        previewShownAfter?(milliseconds, lastChange.isLoad)
    }

    // MARK: Scroll sync

    private func editorScrolled() {
        guard let preview, isPreviewShown, textColumn.isVisible, ContinuousClock.now >= previewLeadsUntil else { return }
        let top = bodyView.topVisibleLine
        preview.scroll(toLine: top.line, fraction: top.fraction)
    }

    private func previewScrolled(toLine line: Int, fraction: Double) {
        guard textColumn.isVisible else { return }
        previewLeadsUntil = ContinuousClock.now + .milliseconds(300)
        bodyView.scroll(toLine: line, fraction: fraction, in: scroller.verticalAdjustment)
    }

    // MARK: Text column

    /// Applies font, size, line spacing, column width and the status line's counts.
    func applyAppearance() {
        let family = appearance.fontFamily(documentFont: EditorPreferences.documentFont)
        fontStyle.load(css: "textview.quire-body { font-family: \(family); font-size: \(appearance.fontSize)pt; }")
        let extra = appearance.extraLinePixels
        bodyView.pixelsInsideWrap = extra
        bodyView.pixelsBelowLines = extra + 4
        showCounts(characters: buffer.characterCount)
        updateMargins()
        applyFocusAids()
    }

    /// Title and body share one column of at most the chosen number of characters, centred as
    /// in GNOME writing apps (an `AdwClamp` each, which a narrow window can still shrink), with
    /// a small margin inside it.
    func scheduleMarginUpdate() {
        guard marginUpdate?.isPending != true else { return }
        // Not during the allocation that reported the width: changing the clamp queues a resize.
        marginUpdate = Timeout(milliseconds: 0) { [weak self] in self?.updateMargins() }
    }

    func updateMargins() {
        // The average width of a character of running text in the body's font.
        let sample = "the quick brown fox jumps over a lazy dog"
        let characterWidth = Double(bodyView.size(ofText: sample).width) / Double(sample.count)
        let column = Int(characterWidth * Double(appearance.columnWidth)) + bodyView.leftMargin + bodyView.rightMargin
        guard column > 0, bodyClamp.maximumSize != column else { return }
        bodyClamp.maximumSize = column
        titleClamp.maximumSize = column
    }

    /// Where the text starts, in pixels from the pane's left edge: the clamp's centring plus the
    /// text view's own margin.
    var textMargin: Int { (scroller.width - bodyView.width) / 2 + bodyView.leftMargin }

    /// Where the title's text starts, in pixels from the pane's left edge.
    var titleMargin: Int { (textColumn.width - titleField.view.width) / 2 }
}
