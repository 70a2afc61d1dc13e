import CGtk

/// A `GtkFileChooserNative`: the desktop's file chooser (the portal's where there is one), as a
/// modal dialog of a window, for opening files, saving one, or picking a folder. GTK 4.8 has no
/// `GtkFileDialog`.
///
/// ```swift
/// let chooser = FileChooserNative(.save, title: "Export As", acceptLabel: "_Export", over: window)
/// chooser.currentName = "Notes.md"
/// chooser.show { paths in paths.first.map(export(to:)) }  // empty when cancelled
/// ```
///
/// A shown chooser keeps itself alive until the writer answers.
@MainActor
public final class FileChooserNative: Object {
    public override class var gType: GType { gtk_file_chooser_native_get_type() }

    /// What the chooser picks.
    public enum Purpose: Sendable {
        /// Existing files to open.
        case open
        /// A new or existing file to write.
        case save
        /// An existing folder.
        case selectFolder

        var gtkAction: GtkFileChooserAction {
            switch self {
            case .open: GTK_FILE_CHOOSER_ACTION_OPEN
            case .save: GTK_FILE_CHOOSER_ACTION_SAVE
            case .selectFolder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
            }
        }
    }

    /// A chooser for `purpose`, modal over `parent`, with a button labelled `acceptLabel`.
    public convenience init(_ purpose: Purpose, title: String, acceptLabel: String, over parent: Window) {
        self.init(owning: UnsafeMutableRawPointer(
            gtk_file_chooser_native_new(title, parent.windowPointer, purpose.gtkAction, acceptLabel, "_Cancel")))
        gtk_native_dialog_set_modal(dialogPointer, 1)
    }

    private var chooserPointer: OpaquePointer { opaquePointer }
    private var dialogPointer: UnsafeMutablePointer<GtkNativeDialog> { pointer(as: GtkNativeDialog.self) }
    /// The chooser itself while it is shown.
    private var retainedUntilAnswered: FileChooserNative?

    /// The file name a save chooser suggests.
    public var currentName: String? {
        get {
            guard let name = gtk_file_chooser_get_current_name(chooserPointer) else { return nil }
            defer { g_free(name) }
            return String(cString: name)
        }
        set { gtk_file_chooser_set_current_name(chooserPointer, newValue) }
    }

    /// Whether the writer may pick several files.
    public var selectsMultiple: Bool {
        get { gtk_file_chooser_get_select_multiple(chooserPointer) != 0 }
        set { gtk_file_chooser_set_select_multiple(chooserPointer, newValue ? 1 : 0) }
    }

    /// Adds a filter, named as the chooser lists it, that shows the files ending in one of
    /// `suffixes` (without dots, matched without regard to case).
    public func addFilter(named name: String, suffixes: [String]) {
        let filter = Object(owning: UnsafeMutableRawPointer(gtk_file_filter_new()))
        gtk_file_filter_set_name(filter.opaquePointer, name)
        for suffix in suffixes { gtk_file_filter_add_suffix(filter.opaquePointer, suffix) }
        // The chooser takes its own reference.
        gtk_file_chooser_add_filter(chooserPointer, filter.opaquePointer)
    }

    /// Shows the chooser; `answered` gets the chosen paths, or none when the writer cancels.
    public func show(_ answered: @escaping @MainActor ([String]) -> Void) {
        retainedUntilAnswered = self
        let pending = OneShot()
        pending.connection = connect(.nativeResponse) { [weak self] response in
            pending.connection?.disconnect()
            pending.connection = nil
            guard let self else { return }
            let paths = response == GTK_RESPONSE_ACCEPT.rawValue ? self.chosenPaths : []
            gtk_native_dialog_destroy(self.dialogPointer)
            // The emission holds the instance until it returns.
            self.retainedUntilAnswered = nil
            answered(paths)
        }
        gtk_native_dialog_show(dialogPointer)
    }

    /// The local paths of the chosen files (files without one, on a remote place, are left out).
    private var chosenPaths: [String] {
        guard let files = gtk_file_chooser_get_files(chooserPointer) else { return [] }
        let list = Object(owning: files)
        return (0..<g_list_model_get_n_items(list.opaquePointer)).compactMap { index in
            guard let file = g_list_model_get_item(list.opaquePointer, index) else { return nil }
            defer { g_object_unref(file) }
            guard let path = g_file_get_path(OpaquePointer(file)) else { return nil }
            defer { g_free(path) }
            return String(cString: path)
        }
    }
}

extension Signal where Handler == (Int32) -> Void {
    /// `GtkNativeDialog::response(response_id)`.
    static var nativeResponse: Self { Self("response") }
}
