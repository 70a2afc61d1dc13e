import CGtk

/// An `AdwPreferencesRow`: a ``ListBoxRow`` with a title, the base of the rows of preferences
/// and dialogs.
@MainActor
open class PreferencesRow: ListBoxRow {
    open override class var gType: GType { adw_preferences_row_get_type() }

    private var preferencesRowPointer: UnsafeMutablePointer<AdwPreferencesRow> { pointer(as: AdwPreferencesRow.self) }

    /// The title.
    public var title: String {
        get { adw_preferences_row_get_title(preferencesRowPointer).map { String(cString: $0) } ?? "" }
        set { adw_preferences_row_set_title(preferencesRowPointer, newValue) }
    }

    /// Whether title and subtitle are Pango markup. Turn it off for text from files or the
    /// writer, which may hold `<` or `&`.
    public var usesMarkup: Bool {
        get { adw_preferences_row_get_use_markup(preferencesRowPointer) != 0 }
        set { adw_preferences_row_set_use_markup(preferencesRowPointer, newValue ? 1 : 0) }
    }
}

/// An `AdwActionRow`: a row with a title, a subtitle, and widgets before and after them.
@MainActor
open class ActionRow: PreferencesRow {
    open override class var gType: GType { adw_action_row_get_type() }

    /// A new row with a title and a subtitle, as plain text.
    public convenience init(title: String, subtitle: String = "") {
        self.init(owning: adw_action_row_new())
        usesMarkup = false
        self.title = title
        self.subtitle = subtitle
    }

    private var actionRowPointer: UnsafeMutablePointer<AdwActionRow> { pointer(as: AdwActionRow.self) }

    /// The line under the title, hidden when empty.
    public var subtitle: String {
        get { adw_action_row_get_subtitle(actionRowPointer).map { String(cString: $0) } ?? "" }
        set { adw_action_row_set_subtitle(actionRowPointer, newValue) }
    }

    /// How many lines the subtitle may take before it ends in "…"; 0 for no limit.
    public var subtitleLines: Int {
        get { Int(adw_action_row_get_subtitle_lines(actionRowPointer)) }
        set { adw_action_row_set_subtitle_lines(actionRowPointer, gint(newValue)) }
    }

    /// Adds a widget before the title (an icon, say).
    public func addPrefix(_ widget: Widget) { adw_action_row_add_prefix(actionRowPointer, widget.widgetPointer) }

    /// Adds a widget after the title (a switch, a button).
    public func addSuffix(_ widget: Widget) { adw_action_row_add_suffix(actionRowPointer, widget.widgetPointer) }
}

/// An `AdwComboRow`: a row offering a choice among labels in a drop-down.
@MainActor
open class ComboRow: ActionRow {
    open override class var gType: GType { adw_combo_row_get_type() }

    private var comboRowPointer: UnsafeMutablePointer<AdwComboRow> { pointer(as: AdwComboRow.self) }

    /// Offers `labels`, selecting the one at `selected`. The row's lists (the choice shown and
    /// the drop-down's) are named by its title for a screen reader; GTK 4.8 would call them
    /// "GtkListView".
    public func setItems(_ labels: [String], selected: Int = 0) {
        let list = Object(owning: UnsafeMutableRawPointer(gtk_string_list_new(nil)))
        for label in labels { gtk_string_list_append(list.opaquePointer, label) }
        // The row takes its own reference to the model.
        adw_combo_row_set_model(comboRowPointer, list.opaquePointer)
        self.selected = selected
        for view in descendants(ofType: gtk_list_view_get_type()) { view.setAccessibleLabel(title) }
    }

    /// The position of the selected label. Changes notify `selected` (``Signal/notify(_:)``).
    public var selected: Int {
        get { Int(adw_combo_row_get_selected(comboRowPointer)) }
        set { adw_combo_row_set_selected(comboRowPointer, guint(newValue)) }
    }
}

/// An `AdwEntryRow`: a row the writer types a line of text into, its title shown as the
/// placeholder.
@MainActor
open class EntryRow: PreferencesRow, Editable {
    open override class var gType: GType { adw_entry_row_get_type() }
}

/// An `AdwPasswordEntryRow`: an ``EntryRow`` whose text is hidden (a token, a password).
@MainActor
open class PasswordEntryRow: EntryRow {
    open override class var gType: GType { adw_password_entry_row_get_type() }
}

/// An `AdwPreferencesGroup`: a titled group of rows.
@MainActor
open class PreferencesGroup: Widget {
    open override class var gType: GType { adw_preferences_group_get_type() }

    /// The text under the group's title.
    public var groupDescription: String {
        get { adw_preferences_group_get_description(pointer(as: AdwPreferencesGroup.self)).map { String(cString: $0) } ?? "" }
        set { adw_preferences_group_set_description(pointer(as: AdwPreferencesGroup.self), newValue) }
    }
}
