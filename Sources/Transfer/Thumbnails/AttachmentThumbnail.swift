import CPangoCairo
import Foundation
import Library

/// An image attachment drawn small: what the editor shows below a reference to it. Decoded as the
/// PDF export decodes images (each raster format only through its own gdk-pixbuf loader, scaled
/// while decoding; SVG through librsvg, which runs no script and fetches nothing), then drawn to
/// fit a square, aspect kept, never enlarged.
public struct AttachmentThumbnail: Sendable {
    /// The size in pixels.
    public let width: Int
    public let height: Int
    /// Bytes from one row to the next.
    public let stride: Int
    /// The rows, each pixel premultiplied ARGB in one native-endian 32-bit word (Cairo's
    /// `ARGB32`, GDK's default memory format).
    public let pixels: [UInt8]

    /// `data` drawn to fit `side` × `side` pixels; nil when it is no image Quire draws, or cannot be
    /// decoded (the reference's text still names it). Slow for a large image: call it off the
    /// main thread.
    public init?(_ data: Data, fitting side: Int) {
        let mediaType = AttachmentMediaType.of(data)
        guard AttachmentMediaType.images.contains(mediaType), side > 0,
              let image = try? PDFImage(data, mediaType: mediaType, maximumPixels: Int32(side)) else { return nil }
        // The image's natural size is in points: back to pixels.
        let natural = (width: image.width / PDFImage.pointsPerPixel, height: image.height / PDFImage.pointsPerPixel)
        let scale = min(1, Double(side) / natural.width, Double(side) / natural.height)
        let width = max(1, Int((natural.width * scale).rounded()))
        let height = max(1, Int((natural.height * scale).rounded()))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface) else { return nil }
        image.draw(on: cairo, x: 0, y: 0, width: Double(width), height: Double(height))
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let bytes = cairo_image_surface_get_data(surface) else { return nil }
        self.width = width
        self.height = height
        self.stride = stride
        pixels = Array(UnsafeBufferPointer(start: bytes, count: stride * height))
    }
}
