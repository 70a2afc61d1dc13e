import CGtk

/// A `GtkProgressBar`: how much of a long task is done.
@MainActor
open class ProgressBar: Widget {
    open override class var gType: GType { gtk_progress_bar_get_type() }

    /// How much of the bar is filled, from 0 to 1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(opaquePointer) }
        set { gtk_progress_bar_set_fraction(opaquePointer, newValue) }
    }

    /// Moves a block back and forth, for work whose length is not known; once per sign of life.
    public func pulse() { gtk_progress_bar_pulse(opaquePointer) }
}

/// A `GtkSpinner`: work under way, for an unknown time.
@MainActor
open class Spinner: Widget {
    open override class var gType: GType { gtk_spinner_get_type() }

    /// Whether it spins.
    public var isSpinning: Bool {
        get { property("spinning", as: Bool.self) }
        set { newValue ? gtk_spinner_start(opaquePointer) : gtk_spinner_stop(opaquePointer) }
    }
}
