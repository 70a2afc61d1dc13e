import CGtk

/// An `AdwStatusPage`: a large icon, a title and a description, in place of content that is
/// not there (an empty list, no search results).
@MainActor
open class StatusPage: Widget {
    open override class var gType: GType { adw_status_page_get_type() }

    /// The title.
    public var title: String {
        get { adw_status_page_get_title(opaquePointer).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_title(opaquePointer, newValue) }
    }

    /// The text under the title (Pango markup).
    public var descriptionMarkup: String {
        get { adw_status_page_get_description(opaquePointer).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_description(opaquePointer, newValue) }
    }

    /// The icon over the title.
    public var iconName: String? {
        get { adw_status_page_get_icon_name(opaquePointer).map { String(cString: $0) } }
        set { adw_status_page_set_icon_name(opaquePointer, newValue) }
    }
}
