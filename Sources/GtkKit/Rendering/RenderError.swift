/// Why a widget could not be rendered to an image or the image not written.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The widget is not in a realized window, so it has no renderer.
    case notRealized(widget: String)
    /// The widget has no size yet (before its first layout).
    case emptySize(widget: String)
    /// The widget drew nothing.
    case nothingDrawn(widget: String)
    /// `gdk_texture_save_to_png` failed (missing folder, no permission, disk full).
    case cannotWritePNG(path: String)

    public var description: String {
        switch self {
        case .notRealized(let widget): "\(widget) is not realized in a window"
        case .emptySize(let widget): "\(widget) has no size yet"
        case .nothingDrawn(let widget): "\(widget) drew nothing"
        case .cannotWritePNG(let path): "cannot write the PNG file \(path)"
        }
    }
}
