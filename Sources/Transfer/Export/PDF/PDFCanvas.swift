import CPangoCairo
import Foundation
import Library

/// A Cairo PDF surface and its drawing context, streaming into an ``OutputFile`` — or into nothing,
/// for a measuring pass that only needs Pango's layout.
final class PDFCanvas {
    let paper: PaperSize
    /// The `cairo_surface_t`.
    let surface: OpaquePointer
    /// The `cairo_t`.
    let cairo: OpaquePointer
    private let stream: Stream
    private var isFinished = false

    /// Where Cairo's output goes, and the first write error, which Cairo itself cannot carry.
    private final class Stream {
        let file: OutputFile?
        var error: (any Error)?
        init(file: OutputFile?) { self.file = file }
    }

    /// A canvas writing a PDF of `paper` pages into `file`; with `file` nil nothing is written.
    init(paper: PaperSize, file: OutputFile?) throws {
        self.paper = paper
        stream = Stream(file: file)
        let closure = Unmanaged.passUnretained(stream).toOpaque()
        surface = cairo_pdf_surface_create_for_stream(
            { closure, data, length in
                let stream = Unmanaged<Stream>.fromOpaque(closure!).takeUnretainedValue()
                guard stream.error == nil, let file = stream.file else {
                    return stream.error == nil ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
                }
                do {
                    try file.write(UnsafeRawBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                } catch {
                    stream.error = error
                    return CAIRO_STATUS_WRITE_ERROR
                }
            }, closure, paper.width, paper.height)
        cairo = cairo_create(surface)
        let status = cairo_status(cairo)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cairo)
            cairo_surface_destroy(surface)
            throw PDFCanvas.error(status, path: file?.path)
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Quire")
    }

    deinit {
        cairo_destroy(cairo)
        if !isFinished { cairo_surface_finish(surface) }
        cairo_surface_destroy(surface)
    }

    /// Sets the document title shown by PDF viewers.
    func setTitle(_ title: String) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
    }

    /// Records the document's language (a dictionary tag, written as BCP 47) in the metadata's
    /// keywords as `lang:en-US`: cairo 1.16 (Debian 12) can set neither the catalog's `/Lang`
    /// nor a custom entry.
    func setLanguage(_ language: String) {
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_KEYWORDS, "lang:" + ArticleLanguage.bcp47(language))
    }

    /// Writes the rest of the PDF (fonts, outline, cross-reference table) and reports any failure.
    func finish() throws {
        isFinished = true
        cairo_surface_finish(surface)
        if let error = stream.error { throw error }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw PDFCanvas.error(status, path: stream.file?.path) }
    }

    private static func error(_ status: cairo_status_t, path: String?) -> ExportError {
        .pdfFailed(path: path ?? "(measuring)", reason: String(cString: cairo_status_to_string(status)))
    }
}
