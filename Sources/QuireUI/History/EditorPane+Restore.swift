import GtkKit

extension EditorPane {
    /// Shows a restored version's title and body, which the library has saved already, as one
    /// undoable change in each field: Ctrl+Z in the text brings back the text the restore
    /// replaced (an edit like any other, saved by the autosave). The change callbacks are not
    /// called, and the text stays marked saved.
    func showRestored(title: String, body: String) {
        isLoading = true
        defer { isLoading = false }
        if titleField.text != title { titleField.buffer.replace(0..<titleField.buffer.characterCount, with: title) }
        if buffer.text != body { buffer.replace(0..<buffer.characterCount, with: body) }
        saveState = .saved
        updateWordCountNow()
        updatePreviewNow()
    }
}
