import CGtk
import Foundation
import GtkKit

/// What a transfer dialog asks the writer to pick.
struct FileRequest: Sendable, Hashable {
    /// What kind of thing is picked.
    enum Kind: Sendable, Hashable {
        /// An existing folder to export into.
        case folder
        /// A new or existing file to save, suggested under this name.
        case saveFile(suggestedName: String)
        /// Existing files to import; `fileExtensions` (without dots) filter the list.
        case openFiles(fileExtensions: [String])
    }

    /// The chooser's title.
    var title: String
    /// The label of the button that accepts the choice.
    var acceptLabel: String
    /// What is picked.
    var kind: Kind
}

/// How the transfer dialogs ask for files: through `GtkFileChooserNative` in the app (the desktop
/// portal's chooser where there is one), and with a fixed answer in tests, which cannot drive a
/// native chooser. Returns the chosen files, or an empty list when the writer cancels.
@MainActor
struct FileChooser {
    /// Asks for `request` over `parent`.
    let choose: @MainActor (FileRequest, Window) async -> [URL]

    /// The desktop's file chooser, as a modal dialog of the transfer dialog.
    static let native = FileChooser { request, parent in
        await withCheckedContinuation { continuation in
            showNativeChooser(for: request, over: parent) { continuation.resume(returning: $0) }
        }
    }

    /// Always answers `urls`: for tests.
    static func answering(_ urls: [URL]) -> FileChooser {
        FileChooser { _, _ in urls }
    }

    private static func showNativeChooser(
        for request: FileRequest, over parent: Window, chosen: @escaping @MainActor ([URL]) -> Void
    ) {
        let action: GtkFileChooserAction = switch request.kind {
        case .folder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        case .saveFile: GTK_FILE_CHOOSER_ACTION_SAVE
        case .openFiles: GTK_FILE_CHOOSER_ACTION_OPEN
        }
        guard let native = gtk_file_chooser_native_new(request.title, parent.windowPointer, action, request.acceptLabel, "_Cancel")
        else {
            chosen([])
            return
        }
        // GtkFileChooserNative is final (an opaque pointer); it is a GtkNativeDialog and a GtkFileChooser.
        let chooser = native
        let dialog = UnsafeMutableRawPointer(native).assumingMemoryBound(to: GtkNativeDialog.self)
        gtk_native_dialog_set_modal(dialog, 1)
        switch request.kind {
        case .folder:
            break
        case .saveFile(let name):
            gtk_file_chooser_set_current_name(chooser, name)
        case .openFiles(let extensions):
            gtk_file_chooser_set_select_multiple(chooser, 1)
            let filter = gtk_file_filter_new()
            gtk_file_filter_set_name(filter, "Markdown Files and Quire Archives")
            for fileExtension in extensions { gtk_file_filter_add_suffix(filter, fileExtension) }
            // The chooser takes its own reference to the filter.
            gtk_file_chooser_add_filter(chooser, filter)
            g_object_unref(UnsafeMutableRawPointer(filter))
        }
        // GtkNativeDialog::response(gint) has a shape GtkKit's typed signals do not cover. The
        // handler owns the chooser's only reference and releases it once the chooser answers.
        let response = ChooserResponse { responseID in
            var urls: [URL] = []
            if responseID == GTK_RESPONSE_ACCEPT.rawValue, let files = gtk_file_chooser_get_files(chooser) {
                for index in 0..<g_list_model_get_n_items(files) {
                    guard let file = g_list_model_get_item(files, index) else { continue }
                    if let path = g_file_get_path(OpaquePointer(file)) {
                        urls.append(URL(fileURLWithPath: String(cString: path)))
                        g_free(path)
                    }
                    g_object_unref(file)
                }
                g_object_unref(UnsafeMutableRawPointer(files))
            }
            gtk_native_dialog_destroy(dialog)
            chosen(urls)
        }
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { instance, responseID, data in
            let response = Unmanaged<ChooserResponse>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { response.answer(responseID) }
            // Last use of the chooser: GLib frees the handler, then the chooser, after the emission.
            g_signal_handlers_disconnect_matched(instance, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, data)
            g_object_unref(instance)
        }
        g_signal_connect_data(
            UnsafeMutableRawPointer(native), "response", unsafeBitCast(trampoline, to: GCallback.self), Unmanaged.passRetained(response).toOpaque(),
            { data, _ in Unmanaged<ChooserResponse>.fromOpaque(data!).release() }, GConnectFlags(rawValue: 0))
        gtk_native_dialog_show(dialog)
    }
}

/// The Swift side of one native chooser's `response` handler.
private final class ChooserResponse {
    let answer: @MainActor (Int32) -> Void

    init(_ answer: @escaping @MainActor (Int32) -> Void) {
        self.answer = answer
    }
}
