import CGtk
import Foundation
import GtkKit

/// The toast a move to the Trash leaves on the main window: “Title” moved to Trash, with Undo,
/// as GNOME Files and Notes do. Undo activates `win.undo-trash` with the article's ID as its
/// target, so the button and a test go through the one action.
@MainActor
struct TrashToast {
    /// The `AdwToast`.
    let toast: Object

    /// The action Undo activates, with the article's ID as a string.
    static let undoAction = "undo-trash"

    /// A toast for the article with `id` and `title`, just moved to the Trash.
    init(articleID id: UUID, title: String) {
        let text = "“\(ConflictDialog.displayTitle(title))” moved to Trash"
        // A toast's title is Pango markup.
        let markup = g_markup_escape_text(text, -1)!
        toast = Object(owning: UnsafeMutableRawPointer(adw_toast_new(markup)))
        g_free(markup)
        adw_toast_set_button_label(toast.opaquePointer, "_Undo")
        adw_toast_set_action_name(toast.opaquePointer, "win.\(Self.undoAction)")
        adw_toast_set_action_target_value(toast.opaquePointer, g_variant_new_string(id.uuidString))
        adw_toast_set_timeout(toast.opaquePointer, 8)
    }

    /// The toast's title as shown (markup).
    var title: String { String(cString: adw_toast_get_title(toast.opaquePointer)) }

    /// The article Undo restores, read back from the toast's action target.
    var articleID: UUID? {
        adw_toast_get_action_target_value(toast.opaquePointer).flatMap(Self.articleID(in:))
    }

    /// Shows the toast on `overlay` (an `AdwToastOverlay`).
    func show(on overlay: Widget) {
        // The overlay takes over a reference: give it one besides the wrapper's.
        g_object_ref(toast.objectPointer)
        adw_toast_overlay_add_toast(overlay.opaquePointer, toast.opaquePointer)
    }

    /// Takes the toast away (a newer one replaces it).
    func dismiss() {
        adw_toast_dismiss(toast.opaquePointer)
    }

    /// The article ID an undo action's parameter names.
    static func articleID(in target: OpaquePointer) -> UUID? {
        guard g_variant_is_of_type(target, g_variant_type_checked_("s")) != 0 else { return nil }
        return UUID(uuidString: String(cString: g_variant_get_string(target, nil)))
    }
}
