import CGtk

/// A widget with one line of text the writer edits (`GtkEditable`): ``Entry``, ``Text``,
/// ``SearchEntry``, ``EntryRow``, ``PasswordEntryRow``.
///
/// ```swift
/// entry.text = folder.name
/// entry.connect(.changed) { [weak self] in self?.nameChanged() }
/// ```
@MainActor
public protocol Editable: Widget {}

extension Editable {
    private var editablePointer: OpaquePointer { opaquePointer }

    /// The text as shown. Setting it replaces the text (as one undoable change, when undo is on).
    public var text: String {
        get { String(cString: gtk_editable_get_text(editablePointer)) }
        set { gtk_editable_set_text(editablePointer, newValue) }
    }

    /// Whether the writer can change the text.
    public var isEditable: Bool {
        get { gtk_editable_get_editable(editablePointer) != 0 }
        set { gtk_editable_set_editable(editablePointer, newValue ? 1 : 0) }
    }

    /// Whether the widget keeps an undo history (Ctrl+Z undoes the writer's typing).
    public var enablesUndo: Bool {
        get { gtk_editable_get_enable_undo(editablePointer) != 0 }
        set { gtk_editable_set_enable_undo(editablePointer, newValue ? 1 : 0) }
    }

    /// The cursor's position, in characters; -1 puts it at the end.
    public var cursorPosition: Int {
        get { Int(gtk_editable_get_position(editablePointer)) }
        set { gtk_editable_set_position(editablePointer, gint(newValue)) }
    }

    /// Replaces the text without an undo step, and empties the undo history: for showing a new
    /// document's text, which the writer could not undo.
    public func load(_ text: String) {
        enablesUndo = false
        self.text = text
        enablesUndo = true
    }

    /// Selects all the text.
    public func selectAll() { gtk_editable_select_region(editablePointer, 0, -1) }
}

extension Signal where Handler == () -> Void {
    /// `GtkEditable::changed` and `GtkTextBuffer::changed`, after every change of the text.
    public static var changed: Self { Self("changed") }
}

/// A `GtkEntry`: a one-line text field with a frame.
@MainActor
open class Entry: Widget, Editable {
    open override class var gType: GType { gtk_entry_get_type() }

    /// A new, empty entry.
    public convenience init() {
        self.init(owning: gtk_entry_new())
    }
}

/// A `GtkText`: a one-line text field without a frame (a title that looks like a heading).
@MainActor
open class Text: Widget, Editable {
    open override class var gType: GType { gtk_text_get_type() }
}
