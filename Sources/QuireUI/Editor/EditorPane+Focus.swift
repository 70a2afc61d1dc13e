import GtkKit

/// Aids for writing without distraction, each a preference: typewriter scrolling (the line with
/// the cursor stays at the middle of the view) and dimming every paragraph but the current one.
/// The status line's selection count follows the cursor too.
extension EditorPane {
    static let dimTag = "quire-dimmed"

    func connectFocusAids() {
        buffer.addForegroundTag(Self.dimTag, foreground: Self.dimColor)
        StyleManager.shared.connect(.notify("dark")) { [weak self] _ in
            self?.buffer.setForeground(Self.dimColor, ofTag: Self.dimTag)
        }.store(in: connections)
        buffer.connect(.notify("cursor-position")) { [weak self] _ in self?.scheduleFocusUpdate() }.store(in: connections)
        buffer.connect(.notify("has-selection")) { [weak self] _ in self?.showSelectionCount() }.store(in: connections)
        scroller.verticalAdjustment.connect(.notify("page-size")) { [weak self] _ in self?.applyTypewriterMargins() }
            .store(in: connections)
    }

    /// Text of other paragraphs: the theme's text at a third of its strength.
    private static var dimColor: String {
        StyleManager.shared.isDark ? "rgba(255, 255, 255, 0.3)" : "rgba(0, 0, 0, 0.3)"
    }

    /// Applies the typewriter and dimming preferences now.
    func applyFocusAids() {
        applyTypewriterMargins()
        if !appearance.dimsOtherParagraphs { buffer.removeTag(Self.dimTag, from: 0..<buffer.characterCount) }
        updateFocusNow()
    }

    private func scheduleFocusUpdate() {
        showSelectionCount()
        guard appearance.typewriterScrolling || appearance.dimsOtherParagraphs, focusUpdate?.isPending != true else { return }
        // After GTK has placed the cursor and laid out the change.
        focusUpdate = Timeout(milliseconds: 0) { [weak self] in self?.updateFocusNow() }
    }

    private func updateFocusNow() {
        if appearance.typewriterScrolling {
            bodyView.scroll(to: buffer.cursorMark, alignment: (0, 0.5))
        }
        if appearance.dimsOtherParagraphs {
            let paragraph = currentParagraph
            let end = buffer.characterCount
            buffer.removeTag(Self.dimTag, from: paragraph)
            buffer.applyTag(Self.dimTag, to: 0..<paragraph.lowerBound)
            buffer.applyTag(Self.dimTag, to: paragraph.upperBound..<end)
            buffer.raiseTag(Self.dimTag)
        }
    }

    /// The paragraph with the cursor: the lines around it up to blank lines.
    var currentParagraph: Range<Int> {
        let line = buffer.line(at: buffer.selection.lowerBound)
        let isBlank = { (line: Int) in self.buffer.text(in: self.buffer.lineRange(line)).allSatisfy(\.isWhitespace) }
        var first = line
        while first > 0, !isBlank(first - 1) { first -= 1 }
        var last = line
        while last + 1 < buffer.lineCount, !isBlank(last + 1) { last += 1 }
        return buffer.offset(ofLine: first)..<buffer.lineRange(last).upperBound
    }

    /// With typewriter scrolling the first and last lines can reach the middle of the view.
    private func applyTypewriterMargins() {
        let half = Int(scroller.verticalAdjustment.pageSize / 2)
        bodyView.topMargin = appearance.typewriterScrolling ? max(8, half) : 8
        bodyView.bottomMargin = appearance.typewriterScrolling ? max(96, half) : 96
    }
}
