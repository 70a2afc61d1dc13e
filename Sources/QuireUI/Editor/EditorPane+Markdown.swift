import GtkKit
import Library

/// The Markdown editing aids: shortcuts that put markers around the selection or on the line,
/// Return that continues a list or quote, Tab and Shift+Tab that indent a list item, and the
/// outline of headings. Each change is one step of the undo history.
extension EditorPane {
    func addMarkdownActions() {
        let markers = [("bold", "**", "<Control>b"), ("italic", "_", "<Control>i"), ("code", "`", "<Control>grave"),
                       ("strikethrough", "~~", "<Control>d")]
        for (name, marker, accelerator) in markers {
            actions.addAction(name, accelerators: [accelerator]) { [weak self] in self?.toggleMarker(marker) }
        }
        actions.addAction("link", accelerators: ["<Control>k"]) { [weak self] in self?.askForLink() }
        for level in 0...6 {
            actions.addAction("heading-\(level)", accelerators: ["<Control>\(level)"]) { [weak self] in self?.makeHeading(level) }
        }
        actions.addAction("outline", accelerators: ["<Control><Shift>o"]) { [weak self] in self?.showOutline() }
        KeyController(on: bodyView) { [weak self] key in self?.handle(key) ?? false }
        linkPopover = LinkPopover(button: linkButton) { [weak self] in self?.linkCompletion() }
        outline = OutlinePopover(
            button: outlineButton, read: { [weak self] in self.map { MarkdownOutline.headings(in: $0.buffer.text) } ?? [] },
            chosen: { [weak self] heading in self?.jump(to: heading) })
    }

    /// Whether the body takes edits and has the focus (shortcuts do nothing elsewhere).
    private var canEditBody: Bool { !isReadOnly && !titleField.view.hasFocus }

    func toggleMarker(_ marker: String) {
        guard canEditBody else { return }
        let selection = buffer.selection
        let width = marker.unicodeScalars.count
        let before = buffer.text(in: max(0, selection.lowerBound - width)..<selection.lowerBound)
        let after = buffer.text(in: selection.upperBound..<min(buffer.characterCount, selection.upperBound + width))
        apply(MarkdownEditing.toggle(marker, selected: buffer.text(in: selection), at: selection, before: before, after: after))
    }

    func makeHeading(_ level: Int) {
        guard canEditBody else { return }
        let cursor = buffer.selection.lowerBound
        let line = buffer.line(at: cursor)
        let range = buffer.lineRange(line)
        apply(MarkdownEditing.heading(level, line: buffer.text(in: range), lineStart: range.lowerBound, cursor: cursor))
    }

    /// Ctrl+K: a selected link goes back to its text; otherwise a popover asks for the address.
    func askForLink() {
        guard canEditBody else { return }
        let selection = buffer.selection
        if let text = MarkdownEditing.linkText(of: buffer.text(in: selection)) {
            let end = selection.lowerBound + text.unicodeScalars.count
            apply(MarkdownEditing.Edit(range: selection, text: text, selection: selection.lowerBound..<end))
            return
        }
        linkPopover?.ask()
    }

    /// What the link popover does with an address: link the selection it opened over.
    func linkCompletion() -> (@MainActor (String) -> Void)? {
        guard !isReadOnly else { return nil }
        let selection = buffer.selection
        return { [weak self] url in
            guard let self, !url.isEmpty else { return }
            apply(MarkdownEditing.link(url, selected: buffer.text(in: selection), at: selection))
            focusBody()
        }
    }

    /// Return, Tab and Shift+Tab on list items and quotes; false leaves the key to the view.
    private func handle(_ key: KeyPress) -> Bool {
        guard !isReadOnly, key.modifiers.subtracting(.shift).isEmpty, buffer.selection.isEmpty else { return false }
        let cursor = buffer.selection.lowerBound
        let lineNumber = buffer.line(at: cursor)
        let range = buffer.lineRange(lineNumber)
        let line = buffer.text(in: range)
        switch key.name {
        case "Return" where key.modifiers.isEmpty, "KP_Enter" where key.modifiers.isEmpty:
            // The lines below, for renumbering a numbered list, up to a blank line.
            var lines = [line]
            var next = lineNumber + 1
            while next < buffer.lineCount, lines.count < 1000 {
                let text = buffer.text(in: buffer.lineRange(next))
                if text.allSatisfy({ $0 == " " }) { break }
                lines.append(text)
                next += 1
            }
            guard let edit = MarkdownEditing.newLine(lines: lines, lineStart: range.lowerBound, column: cursor - range.lowerBound)
            else { return false }
            apply(edit)
            bodyView.scroll(to: buffer.cursorMark)
            return true
        case "Tab", "ISO_Left_Tab":
            let outwards = key.name == "ISO_Left_Tab" || key.modifiers.contains(.shift)
            let previous = (max(0, lineNumber - 50)..<lineNumber).map { buffer.text(in: buffer.lineRange($0)) }
            guard let edit = MarkdownEditing.indent(
                line: line, lineStart: range.lowerBound, cursor: cursor, outwards: outwards, previousLines: previous)
            else { return false }
            apply(edit)
            return true
        default:
            return false
        }
    }

    /// Applies an edit as one undo step and selects what it says.
    func apply(_ edit: MarkdownEditing.Edit) {
        buffer.asOneUserAction {
            buffer.replace(edit.range, with: edit.text)
        }
        buffer.select(edit.selection)
    }

    /// Ctrl+Shift+O: the outline of headings; choosing one puts the cursor there and scrolls
    /// text and preview to it.
    func showOutline() {
        outline?.show()
    }

    /// Puts the cursor at the heading and its line at the top of the text and the preview.
    func jump(to heading: MarkdownHeading) {
        let offset = buffer.offset(ofLine: heading.line)
        buffer.select(offset..<offset)
        bodyView.scroll(to: buffer.cursorMark, alignment: (0, 0))
        preview?.scroll(toLine: heading.line, fraction: 0)
        focusBody()
    }
}
