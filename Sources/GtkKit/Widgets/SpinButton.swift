import CGtk

/// A `GtkSpinButton`: a number the writer types or steps through (a font size, a column width).
@MainActor
open class SpinButton: Widget {
    open override class var gType: GType { gtk_spin_button_get_type() }

    private var spinPointer: OpaquePointer { opaquePointer }

    /// A new spin button over `range`, in steps of `step`, showing `digits` decimals.
    public convenience init(range: ClosedRange<Double>, step: Double, digits: Int = 0) {
        self.init(owning: gtk_spin_button_new_with_range(range.lowerBound, range.upperBound, step))
        gtk_spin_button_set_digits(spinPointer, guint(digits))
        gtk_widget_set_valign(widgetPointer, GTK_ALIGN_CENTER)
    }

    /// The value. Setting it clamps it to the range and emits ``Signal/valueChanged`` when it changes.
    public var value: Double {
        get { gtk_spin_button_get_value(spinPointer) }
        set { gtk_spin_button_set_value(spinPointer, newValue) }
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkSpinButton::value-changed`.
    public static var valueChanged: Self { Self("value-changed") }
}
