import Foundation
import GtkKit
import Platform

/// The toast a move to the Trash leaves on the main window: “Title” moved to Trash, with Undo,
/// as GNOME Files and Notes do. Undo activates `win.undo-trash` with the article's ID as its
/// target, so the button and a test go through the one action.
@MainActor
struct TrashToast {
    /// The toast.
    let toast: Toast

    /// The action Undo activates, with the article's ID as a string.
    static let undoAction = "undo-trash"

    /// A toast for the article with `id` and `title`, just moved to the Trash.
    init(articleID id: UUID, title: String) {
        toast = Toast(title: String(cFormat: gettext("“%s” moved to Trash"), ConflictDialog.displayTitle(title)))
        toast.buttonLabel = gettext("_Undo")
        toast.setAction("win.\(Self.undoAction)", target: id.uuidString)
        toast.timeout = 8
    }

    /// The toast's title as shown (markup).
    var title: String { toast.titleMarkup }

    /// The article Undo restores, read back from the toast's action target.
    var articleID: UUID? {
        toast.actionTarget(as: String.self).flatMap(UUID.init(uuidString:))
    }

    /// Shows the toast on `overlay`.
    func show(on overlay: ToastOverlay) {
        overlay.add(toast)
    }

    /// Takes the toast away (a newer one replaces it).
    func dismiss() {
        toast.dismiss()
    }
}
