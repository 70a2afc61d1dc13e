import CGtk

/// A `GtkPicture`: an image shown at its own size, such as an attachment's thumbnail.
@MainActor
open class Picture: Widget {
    open override class var gType: GType { gtk_picture_get_type() }

    /// A new picture of `texture`, at the texture's size (never shrunk to fit).
    public convenience init(_ texture: Texture) {
        self.init(owning: gtk_picture_new_for_paintable(texture.opaquePointer))
        gtk_picture_set_can_shrink(opaquePointer, 0)
    }

    /// Shows `texture` instead; nil shows nothing and lets the last texture go.
    public func setTexture(_ texture: Texture?) {
        gtk_picture_set_paintable(opaquePointer, texture?.opaquePointer)
    }

    /// Sets what a screen reader says for the picture.
    public func setAlternativeText(_ text: String) {
        gtk_picture_set_alternative_text(opaquePointer, text)
    }
}
