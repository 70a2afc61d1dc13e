import Foundation
import GtkKit
import Platform

/// The toast a finished export or import leaves on the main window's `AdwToastOverlay`; after an
/// export it offers "Open Folder", which opens the folder holding the output. Without a folder it
/// is a plain toast (the conflict banner's outcomes use it too).
@MainActor
final class TransferToast {
    /// The toast.
    let toast: Toast
    /// The folder "Open Folder" opens; nil for a toast without the button.
    let folder: URL?
    /// Opens a folder in the desktop's file manager.
    private let openFolder: @MainActor (URL) throws -> Void
    /// The overlay the toast is shown on, for reporting a folder that cannot be opened.
    private weak var overlay: ToastOverlay?
    private var opensFolderOnClick = false

    /// A toast saying `title`, with "Open Folder" when `folder` is given.
    init(title: String, folder: URL?, openFolder: @escaping @MainActor (URL) throws -> Void = TransferToast.launchFileManager) {
        // Titles and paths in it are plain text, escaped by the toast.
        toast = Toast(title: title)
        self.folder = folder
        self.openFolder = openFolder
        toast.timeout = 8
        guard folder != nil else { return }
        toast.buttonLabel = gettext("Open Folder")
    }

    /// Shows the toast on `overlay`.
    func show(on overlay: ToastOverlay) {
        self.overlay = overlay
        if let folder, !opensFolderOnClick {
            opensFolderOnClick = true
            // The handler holds what it needs, not this object: the toast outlives it on the overlay.
            let openFolder = self.openFolder
            toast.connect(.buttonClicked) { [weak overlay] in
                Self.open(folder, with: openFolder, reportingOn: overlay)
            }
        }
        overlay.add(toast)
    }

    /// What "Open Folder" does: opens ``folder``, or says on the overlay why it could not.
    func openOutputFolder() {
        guard let folder else { return }
        Self.open(folder, with: openFolder, reportingOn: overlay)
    }

    private static func open(_ folder: URL, with openFolder: @MainActor (URL) throws -> Void, reportingOn overlay: ToastOverlay?) {
        do {
            try openFolder(folder)
        } catch {
            guard let overlay else { return }
            // A toast has room for a sentence only; the details go to standard error.
            FileHandle.standardError.write(Data("quire: cannot open \(folder.path): \(error)\n".utf8))
            let sentence = ErrorExplanation(error).sentence
            TransferToast(title: String(cFormat: gettext("Could not open “%1$s”. %2$s"), folder.lastPathComponent, sentence), folder: nil).show(on: overlay)
        }
    }

    /// Opens `folder` with the desktop's default handler for folders.
    static func launchFileManager(_ folder: URL) throws {
        try AppInfo.launchDefault(forURI: folder.absoluteString)
    }
}
