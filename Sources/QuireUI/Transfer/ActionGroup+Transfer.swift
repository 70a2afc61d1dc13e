import CGtk
import GtkKit

/// The few widget calls the transfer dialogs share: filling and reading `AdwComboRow`s, switches
/// and labels, showing a note; and their Cancel and Close actions.
extension Widget {
    /// Makes an `AdwComboRow` offer `labels`, selecting `selected`.
    func setComboItems(_ labels: [String], selected: Int = 0) {
        let list = gtk_string_list_new(nil)
        for label in labels { gtk_string_list_append(list, label) }
        // The row takes its own reference to the model.
        adw_combo_row_set_model(pointer(as: AdwComboRow.self), list)
        g_object_unref(UnsafeMutableRawPointer(list))
        comboSelection = selected
    }

    /// The position selected in an `AdwComboRow`.
    var comboSelection: Int {
        get { Int(adw_combo_row_get_selected(pointer(as: AdwComboRow.self))) }
        set { adw_combo_row_set_selected(pointer(as: AdwComboRow.self), guint(newValue)) }
    }

    /// Whether a `GtkSwitch` is on.
    var isSwitchedOn: Bool {
        get { gtk_switch_get_active(opaquePointer) != 0 }
        set { gtk_switch_set_active(opaquePointer, newValue ? 1 : 0) }
    }

    /// Shows `message` in a `GtkLabel` (styled as an error when `isError`), or hides the label
    /// for nil.
    func showMessage(_ message: String?, isError: Bool = false) {
        isVisible = message != nil
        labelText = message ?? ""
        setStyleClass("error", on: isError)
    }

    /// The text of a `GtkLabel`.
    var labelText: String {
        get { property("label", as: String.self) }
        set { setProperty("label", newValue) }
    }
}

extension ActionGroup {
    /// The actions every transfer dialog has: `cancel` stops what runs, `close` (Escape) closes
    /// `window`, and closing the window stops what runs too.
    func addCancelAndClose(for window: Window, cancelRunning: @escaping @MainActor () -> Void) {
        addAction("cancel", cancelRunning)
        addAction("close", accelerators: ["Escape"]) { [weak window] in window?.close() }
        window.connect(.closeRequest) {
            cancelRunning()
            return false
        }
    }
}
