import CGtk

/// A `GtkImage` showing an icon of the icon theme.
@MainActor
open class Image: Widget {
    open override class var gType: GType { gtk_image_get_type() }

    /// A new image showing nothing yet.
    public convenience init() {
        self.init(owning: gtk_image_new())
    }

    /// A new image of the icon named `iconName`, such as `folder-symbolic`.
    public convenience init(iconName: String) {
        self.init(owning: gtk_image_new_from_icon_name(iconName))
    }

    /// The icon shown, nil when the image shows something else.
    public var iconName: String? {
        get { gtk_image_get_icon_name(opaquePointer).map { String(cString: $0) } }
        set { gtk_image_set_from_icon_name(opaquePointer, newValue) }
    }

    /// The icon's size in pixels; -1 for the size its CSS gives.
    public var pixelSize: Int {
        get { Int(gtk_image_get_pixel_size(opaquePointer)) }
        set { gtk_image_set_pixel_size(opaquePointer, gint(newValue)) }
    }
}
