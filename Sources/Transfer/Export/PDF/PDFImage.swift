import CPangoCairo
import CRsvg
import Foundation
import Library

/// An attachment decoded for a PDF: PNG, JPEG, GIF (its first frame) and WebP through gdk-pixbuf
/// (each only through the loader of its own media type), SVG through librsvg, which draws it as
/// vectors and runs no script. Its size is its natural size at 96 pixels per inch, which the
/// typesetter scales down to the text width and never up.
final class PDFImage {
    /// The natural size in points.
    let width: Double
    let height: Double
    private let content: Content

    private enum Content {
        /// A `cairo_surface_t` image surface.
        case raster(OpaquePointer, pixelWidth: Int, pixelHeight: Int)
        /// An `RsvgHandle`.
        case svg(UnsafeMutablePointer<RsvgHandle>)
    }

    /// Points per CSS pixel (72 / 96).
    static let pointsPerPixel = 0.75

    /// Decodes `file`; throws a sentence saying why it cannot be drawn.
    convenience init(_ file: AttachmentFile) throws(PDFImageProblem) {
        guard let data = file.data else { throw PDFImageProblem(file.problem ?? "its bytes cannot be read") }
        try self.init(data, mediaType: file.mediaType)
    }

    /// Decodes `data` of `mediaType`, a raster image at most `maximumPixels` on its longer side
    /// (the loader scales it while decoding: a thumbnail never holds the full-size pixels).
    init(_ data: Data, mediaType: String, maximumPixels: Int32 = PDFImage.maximumPixels) throws(PDFImageProblem) {
        switch mediaType {
        case AttachmentMediaType.svg:
            var error: UnsafeMutablePointer<GError>?
            let handle = data.withUnsafeBytes { bytes in
                rsvg_handle_new_from_data(bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count), &error)
            }
            guard let handle else { throw PDFImageProblem(Self.message(error, otherwise: "it is not an SVG image librsvg reads")) }
            var pixelWidth = 0.0
            var pixelHeight = 0.0
            if rsvg_handle_get_intrinsic_size_in_pixels(handle, &pixelWidth, &pixelHeight) == 0 {
                // No width and height of its own: its view box's aspect at the text width.
                var viewBox = RsvgRectangle()
                var hasViewBox: gboolean = 0
                rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
                (pixelWidth, pixelHeight) = hasViewBox != 0 && viewBox.width > 0 ? (viewBox.width, viewBox.height) : (0, 0)
            }
            guard pixelWidth > 0, pixelHeight > 0 else {
                g_object_unref(handle)
                throw PDFImageProblem("the SVG image has no size")
            }
            content = .svg(handle)
            width = pixelWidth * Self.pointsPerPixel
            height = pixelHeight * Self.pointsPerPixel
        case AttachmentMediaType.png, AttachmentMediaType.jpeg, AttachmentMediaType.gif, AttachmentMediaType.webP:
            let (surface, natural) = try Self.decodeRaster(data, mediaType: mediaType, maximumPixels: maximumPixels)
            let pixelWidth = Int(cairo_image_surface_get_width(surface))
            let pixelHeight = Int(cairo_image_surface_get_height(surface))
            content = .raster(surface, pixelWidth: pixelWidth, pixelHeight: pixelHeight)
            width = Double(natural.width) * Self.pointsPerPixel
            height = Double(natural.height) * Self.pointsPerPixel
        default:
            throw PDFImageProblem("it is not an image (\(mediaType))")
        }
    }

    deinit {
        switch content {
        case .raster(let surface, _, _): cairo_surface_destroy(surface)
        case .svg(let handle): g_object_unref(handle)
        }
    }

    /// The size to draw at: the natural size, scaled down (aspect kept) to fit `maximumWidth` and
    /// `maximumHeight`, never up.
    func size(fitting maximumWidth: Double, _ maximumHeight: Double) -> (width: Double, height: Double) {
        let scale = min(1, maximumWidth / width, maximumHeight / height)
        return (width * scale, height * scale)
    }

    /// Draws the image into the rectangle at `x`, `y` of `width` × `height` points.
    func draw(on cairo: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        switch content {
        case .raster(let surface, let pixelWidth, let pixelHeight):
            cairo_translate(cairo, x, y)
            cairo_scale(cairo, width / Double(pixelWidth), height / Double(pixelHeight))
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_paint(cairo)
        case .svg(let handle):
            var viewport = RsvgRectangle(x: x, y: y, width: width, height: height)
            rsvg_handle_render_document(handle, cairo, &viewport, nil)
        }
    }

    /// The most pixels a raster image keeps on its longer side: enough for print at the text width
    /// (about 6.5 inches at 600 pixels per inch), and a bound on the memory a small file that
    /// claims huge dimensions can take.
    static let maximumPixels: Int32 = 4096

    /// The first frame of a raster image, as a Cairo image surface (premultiplied ARGB), at most
    /// `maximumPixels` on its longer side, and its size in pixels before that.
    private static func decodeRaster(
        _ data: Data, mediaType: String, maximumPixels: Int32
    ) throws(PDFImageProblem) -> (surface: OpaquePointer, natural: (width: Int32, height: Int32)) {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_mime_type(mediaType, &error) else {
            throw PDFImageProblem(message(error, otherwise: "no image loader for \(mediaType) is installed"))
        }
        defer { g_object_unref(loader) }
        // Told the image's size before any pixel is decoded, the loader is asked to scale it down.
        let natural = NaturalSize(limit: maximumPixels)
        let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
            loader, width, height, box in
            let natural = Unmanaged<NaturalSize>.fromOpaque(box!).takeUnretainedValue()
            natural.width = width
            natural.height = height
            let longer = max(width, height)
            guard longer > natural.limit else { return }
            let scale = Double(natural.limit) / Double(longer)
            gdk_pixbuf_loader_set_size(loader, max(1, Int32(Double(width) * scale)), max(1, Int32(Double(height) * scale)))
        }
        g_signal_connect_data(
            loader, "size-prepared", unsafeBitCast(sizePrepared, to: GCallback.self), Unmanaged.passUnretained(natural).toOpaque(),
            nil, GConnectFlags(0))
        let written = data.withUnsafeBytes { bytes in
            gdk_pixbuf_loader_write(loader, bytes.bindMemory(to: UInt8.self).baseAddress, gsize(bytes.count), &error)
        }
        // The loader is closed either way; a write's error is the one worth telling.
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        if error == nil { error = closeError } else if let closeError { g_error_free(closeError) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw PDFImageProblem(message(error, otherwise: "the image cannot be decoded"))
        }
        let width = gdk_pixbuf_get_width(pixbuf)
        let height = gdk_pixbuf_get_height(pixbuf)
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels >= 3, let pixels = gdk_pixbuf_read_pixels(pixbuf),
              let surface = cairo_image_surface_create(hasAlpha ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, width, height),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw PDFImageProblem("the image's pixel format cannot be drawn") }
        cairo_surface_flush(surface)
        let target = cairo_image_surface_get_data(surface)!
        let targetStride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<Int(height) {
            let source = pixels + row * sourceStride
            let line = UnsafeMutableRawPointer(target + row * targetStride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<Int(width) {
                let pixel = source + column * channels
                let alpha = hasAlpha ? UInt32(pixel[3]) : 255
                // Cairo wants each colour premultiplied by alpha, in one native-endian word.
                func premultiplied(_ value: UInt8) -> UInt32 { (UInt32(value) * alpha + 127) / 255 }
                line[column] = alpha << 24 | premultiplied(pixel[0]) << 16 | premultiplied(pixel[1]) << 8 | premultiplied(pixel[2])
            }
        }
        cairo_surface_mark_dirty(surface)
        return (surface, natural.width > 0 ? (natural.width, natural.height) : (width, height))
    }

    /// The size a loader reports before decoding, and the most pixels to decode on the longer side.
    private final class NaturalSize {
        let limit: Int32
        var width: Int32 = 0
        var height: Int32 = 0
        init(limit: Int32) { self.limit = limit }
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?, otherwise: String) -> String {
        guard let error else { return otherwise }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}

/// Why an attachment is not drawn, as a sentence for the placeholder line.
struct PDFImageProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
