import CGLib

/// A number of bytes as the writer reads it ("25.0 MB"), in the user's language and number
/// format (GLib's `g_format_size`, SI units as GNOME shows them everywhere).
public func fileSizeText(_ bytes: Int) -> String {
    guard let text = g_format_size(guint64(max(bytes, 0))) else { return "\(bytes) B" }
    defer { g_free(text) }
    return String(cString: text)
}
