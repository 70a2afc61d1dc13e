import CGtk

/// A `GtkDropDown` over a fixed list of strings: one choice of a few (the editor's status:
/// Draft, Ready, Published; the sidebar's status filter).
///
/// ```swift
/// let status = DropDown(choices: ["Draft", "Ready", "Published"])
/// status.connect(.notify("selected")) { _ in print(status.selectedIndex) }
/// ```
@MainActor
open class DropDown: Widget {
    open override class var gType: GType { gtk_drop_down_get_type() }

    /// A new drop-down offering `choices` in order, the first one selected.
    public convenience init(choices: [String]) {
        let list = gtk_string_list_new(nil)
        for choice in choices { gtk_string_list_append(list, choice) }
        // The drop-down takes over the list's reference.
        self.init(owning: gtk_drop_down_new(list, nil))
    }

    /// The chosen entry's position. Setting it notifies `selected` (``Signal/notify(_:)``) when
    /// it changes, as the writer's choice does.
    public var selectedIndex: Int {
        get { Int(gtk_drop_down_get_selected(opaquePointer)) }
        set { gtk_drop_down_set_selected(opaquePointer, guint(newValue)) }
    }

    /// The entries offered, in order.
    public var choices: [String] {
        guard let model = gtk_drop_down_get_model(opaquePointer) else { return [] }
        return (0..<g_list_model_get_n_items(model)).map { index in
            gtk_string_list_get_string(model, index).map { String(cString: $0) } ?? ""
        }
    }

    /// The chosen entry as shown.
    public var selectedChoice: String? {
        let choices = choices
        return choices.indices.contains(selectedIndex) ? choices[selectedIndex] : nil
    }
}
