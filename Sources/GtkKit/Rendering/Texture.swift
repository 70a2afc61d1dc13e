import CGtk

/// A `GdkTexture`: an immutable image, such as a rendered widget or a loaded PNG.
@MainActor
public final class Texture: Object {
    public override class var gType: GType { gdk_texture_get_type() }

    /// Loads an image file (PNG, JPEG, TIFF).
    public convenience init(contentsOfFile path: String) throws(GLibError) {
        let texture = try GLibError.check("loading the image \(path)") { error in
            gdk_texture_new_from_filename(path, error)
        }
        self.init(owning: texture)
    }

    /// Loads an image from its encoded bytes (PNG, JPEG, TIFF). Throws GDK's error for bytes it
    /// cannot read as an image.
    public convenience init(encoded bytes: [UInt8]) throws(GLibError) {
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(data) }
        let texture = try GLibError.check("reading an image") { error in gdk_texture_new_from_bytes(data, error) }
        self.init(owning: texture)
    }

    /// An image of `width` × `height` pixels from `pixels`: rows `stride` bytes apart, each
    /// pixel premultiplied ARGB in one native-endian 32-bit word (Cairo's `ARGB32`).
    public convenience init(premultipliedARGB pixels: [UInt8], width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4 && pixels.count >= stride * height, "pixels do not fill the size")
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        // A native-endian ARGB word, as GDK names its bytes in memory order.
        #if _endian(little)
        let format = GDK_MEMORY_B8G8R8A8_PREMULTIPLIED
        #else
        let format = GDK_MEMORY_A8R8G8B8_PREMULTIPLIED
        #endif
        self.init(owning: gdk_memory_texture_new(gint(width), gint(height), format, bytes, gsize(stride)))
    }

    private var texturePointer: OpaquePointer { opaquePointer }

    /// The width in pixels.
    public var width: Int { Int(gdk_texture_get_width(texturePointer)) }

    /// The height in pixels.
    public var height: Int { Int(gdk_texture_get_height(texturePointer)) }

    /// Writes the texture as a PNG file.
    public func savePNG(to path: String) throws(RenderError) {
        guard gdk_texture_save_to_png(texturePointer, path) != 0 else { throw .cannotWritePNG(path: path) }
    }

    /// The texture encoded as a PNG file's bytes.
    public func pngBytes() -> [UInt8] {
        let bytes = gdk_texture_save_to_png_bytes(texturePointer)
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let start = g_bytes_get_data(bytes, &size) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(size)))
    }

    /// The pixels row by row, each as premultiplied ARGB in a native-endian 32-bit value
    /// (`0xAARRGGBB`).
    public func pixels() -> [UInt32] {
        let count = width * height
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                gdk_texture_download(texturePointer, bytes.baseAddress, gsize(width * 4))
            }
            initialized = count
        }
    }
}
