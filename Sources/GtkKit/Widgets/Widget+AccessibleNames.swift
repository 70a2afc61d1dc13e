import CGtk

/// What a screen reader calls the buttons GTK 4.8 names wrongly.
///
/// A button whose label has a mnemonic (`Keep B_oth`) gets two names at once in GTK 4.8: its
/// label as written, underscore and all, and the text of its mnemonic label, which points back at
/// it; AT-SPI joins them ("Keep B_oth Keep Both"). A check button keeps the underscore alone.
/// Both are said once, as shown, from here on; a relabelled button is named again.
extension Widget {
    /// Names the widget, when it is a button or check button with a mnemonic in its label, and
    /// every such button inside it, by the label's text without the underscore, once.
    /// ``Window/present()`` does it for each window it shows (a dialog's responses included).
    public func nameMnemonicButtons() {
        if usesUnderlinedLabel { followLabelForName() }
        for child in children { child.nameMnemonicButtons() }
    }

    /// Whether the widget is a (check) button showing a label with a mnemonic.
    private var usesUnderlinedLabel: Bool {
        guard isA(gtk_button_get_type()) || isA(gtk_check_button_get_type()) else { return false }
        return property("use-underline", as: Bool.self) && !property("label", as: String.self).isEmpty
    }

    /// Names the button by its label now and after each change of it (GTK sets the label as
    /// written again at each change). The handler is connected once per button.
    private func followLabelForName() {
        nameByLabel()
        connectOnce(.notify("label")) { [weak self] _ in self?.nameByLabel() }
    }

    private func nameByLabel() {
        // The name alone: the mnemonic label's relation would say it a second time.
        gtk_accessible_reset_relation(OpaquePointer(widgetPointer), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
        setAccessibleLabel(Mnemonic.text(of: property("label", as: String.self)))
    }

    /// Names the widget (an icon-only button) by its tooltip now and whenever the tooltip
    /// changes: for buttons libadwaita makes, whose tooltip says what they do ("Show Text", then
    /// "Hide Text") but which GTK 4.8 names by their icon's type ("GtkImage").
    public func nameByTooltip() {
        let name = { [weak self] in
            guard let self, let tooltip = tooltipText else { return }
            // The icon's relation would add "GtkImage" after the name.
            gtk_accessible_reset_relation(OpaquePointer(widgetPointer), GTK_ACCESSIBLE_RELATION_LABELLED_BY)
            setAccessibleLabel(tooltip)
        }
        name()
        connectOnce(.notify("tooltip-text")) { _ in name() }
    }

    /// Connects `handler` unless this function connected a handler to `signal` before: the
    /// names are given again at each ``Window/present()``, their handlers only once.
    private func connectOnce(_ signal: Signal<(UnsafeMutableRawPointer?) -> Void>, _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void) {
        let key = "gtkkit-accessible-name-\(signal.name)"
        guard g_object_get_data(objectPointer, key) == nil else { return }
        g_object_set_data(objectPointer, key, UnsafeMutableRawPointer(bitPattern: 1))
        connect(signal, handler)
    }

    /// Keeps the widget, and all inside it, from screen readers while `hidden`: for parts GTK
    /// 4.8 presents though they can never be shown (a stack's other pages are presented).
    public func setHiddenFromScreenReaders(_ hidden: Bool) {
        var state = GTK_ACCESSIBLE_STATE_HIDDEN
        var value = GValue()
        g_value_init(&value, Bool.valueType)
        hidden.store(in: &value)
        gtk_accessible_update_state_value(OpaquePointer(widgetPointer), 1, &state, &value)
        g_value_unset(&value)
    }
}

/// Mnemonics in labels: an underscore before the letter Alt presses, two for one shown.
public enum Mnemonic {
    /// The text a label shows for `label`: each mnemonic underscore taken out ("Keep B_oth" →
    /// "Keep Both"), a doubled one kept once ("snake__case" → "snake_case"), as GTK draws it.
    public static func text(of label: String) -> String {
        var shown = ""
        var escaped = false
        for character in label {
            if character == "_" && !escaped {
                escaped = true
                continue
            }
            escaped = false
            shown.append(character)
        }
        // A last lone underscore marks nothing; GTK shows it.
        if escaped { shown.append("_") }
        return shown
    }
}
