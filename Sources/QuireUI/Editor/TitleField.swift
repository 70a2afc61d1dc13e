import GtkKit

/// The article's title above the text (`title_view` in `EditorPane.ui`): a text view that wraps
/// by word, so a long title stays in sight on as many lines as it needs, yet holds one line of
/// text. A newline typed or pasted becomes a space, Return moves on (``returnPressed``), and
/// "Title" shows while it is empty.
@MainActor
final class TitleField {
    /// The text view the writer types in.
    let view: TextView
    /// Its text, with the title's own undo history.
    let buffer: TextBuffer
    private let placeholder: Widget

    /// Called when the writer presses Return (or Shift+Return) in the title.
    var returnPressed: (@MainActor () -> Void)?

    /// The title field of an editor pane's builder.
    init(builder: Builder) throws {
        view = try builder.object("title_view")
        buffer = try builder.object("title_buffer")
        placeholder = try builder.object("title_placeholder")
        buffer.rewriteInsertions(Self.oneLine)
        buffer.connect(.changed) { [weak self] in self?.showPlaceholder() }
        KeyController(on: view) { [weak self] key in
            guard ["Return", "KP_Enter", "ISO_Enter"].contains(key.name), key.modifiers.subtracting(.shift).isEmpty,
                let self
            else { return false }
            self.returnPressed?()
            return true
        }
    }

    /// The title as shown.
    var text: String { buffer.text }

    /// Shows `title` (on one line), with an empty undo history.
    func load(_ title: String) {
        buffer.load(title)
    }

    /// `text` with every line break (`\n`, `\r\n`, a paragraph separator…) as a space: a title is
    /// one line, and a pasted one keeps all its words.
    static func oneLine(_ text: String) -> String {
        text.contains(where: \.isNewline) ? String(text.map { $0.isNewline ? " " : $0 }) : text
    }

    private func showPlaceholder() {
        placeholder.isVisible = buffer.characterCount == 0
    }
}
