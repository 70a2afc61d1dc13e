import CGtk
import Foundation
import GtkKit

/// The toast a finished export or import leaves on the main window's `AdwToastOverlay`; after an
/// export it offers "Open Folder", which opens the folder holding the output. Without a folder it
/// is a plain toast (the conflict banner's outcomes use it too).
@MainActor
final class TransferToast {
    /// The `AdwToast`.
    let toast: Object
    /// The folder "Open Folder" opens; nil for a toast without the button.
    let folder: URL?
    /// Opens a folder in the desktop's file manager.
    private let openFolder: @MainActor (URL) throws -> Void
    /// The overlay the toast is shown on, for reporting a folder that cannot be opened.
    private weak var overlay: Widget?
    private var opensFolderOnClick = false

    /// A toast saying `title`, with "Open Folder" when `folder` is given.
    init(title: String, folder: URL?, openFolder: @escaping @MainActor (URL) throws -> Void = TransferToast.launchFileManager) {
        // A toast's title is Pango markup; titles and paths in it are plain text.
        let markup = g_markup_escape_text(title, -1)!
        toast = Object(owning: UnsafeMutableRawPointer(adw_toast_new(markup)))
        g_free(markup)
        self.folder = folder
        self.openFolder = openFolder
        adw_toast_set_timeout(toast.opaquePointer, 8)
        guard folder != nil else { return }
        adw_toast_set_button_label(toast.opaquePointer, "Open Folder")
    }

    /// Shows the toast on `overlay`.
    func show(on overlay: Widget) {
        self.overlay = overlay
        if let folder, !opensFolderOnClick {
            opensFolderOnClick = true
            // The handler holds what it needs, not this object: the toast outlives it on the overlay.
            let openFolder = self.openFolder
            toast.connect(Signal<() -> Void>("button-clicked")) { [weak overlay] in
                Self.open(folder, with: openFolder, reportingOn: overlay)
            }
        }
        // The overlay takes over a reference: give it one besides the wrapper's.
        g_object_ref(toast.objectPointer)
        adw_toast_overlay_add_toast(overlay.opaquePointer, toast.opaquePointer)
    }

    /// What "Open Folder" does: opens ``folder``, or says on the overlay why it could not.
    func openOutputFolder() {
        guard let folder else { return }
        Self.open(folder, with: openFolder, reportingOn: overlay)
    }

    private static func open(_ folder: URL, with openFolder: @MainActor (URL) throws -> Void, reportingOn overlay: Widget?) {
        do {
            try openFolder(folder)
        } catch {
            guard let overlay else { return }
            TransferToast(title: "Cannot open the folder: \(error)", folder: nil).show(on: overlay)
        }
    }

    /// Opens `folder` with the desktop's default handler for folders (GTK 4.8 has no
    /// `GtkFileLauncher`).
    static func launchFileManager(_ folder: URL) throws {
        var error: UnsafeMutablePointer<GError>?
        let launched = g_app_info_launch_default_for_uri(folder.absoluteString, nil, &error)
        if let error {
            defer { g_error_free(error) }
            throw FolderOpeningError(path: folder.path, message: String(cString: error.pointee.message))
        }
        if launched == 0 { throw FolderOpeningError(path: folder.path, message: "no application opens folders") }
    }
}

/// Why "Open Folder" could not open the export's folder.
struct FolderOpeningError: Error, CustomStringConvertible {
    /// The folder.
    var path: String
    /// GLib's reason.
    var message: String

    var description: String { "\(path): \(message)" }
}
