import CGtk

/// An `AdwWindowTitle`: a header bar's title and subtitle.
@MainActor
open class WindowTitle: Widget {
    open override class var gType: GType { adw_window_title_get_type() }

    /// The title.
    public var title: String {
        get { adw_window_title_get_title(opaquePointer).map { String(cString: $0) } ?? "" }
        set { adw_window_title_set_title(opaquePointer, newValue) }
    }

    /// The smaller line under the title, hidden when empty.
    public var subtitle: String {
        get { adw_window_title_get_subtitle(opaquePointer).map { String(cString: $0) } ?? "" }
        set { adw_window_title_set_subtitle(opaquePointer, newValue) }
    }
}
