import CPangoCairo
import Foundation
import Library

/// The PDF's bookmarks (document outline): articles at the top, their headings nested beneath by
/// level, each pointing at the page and height where it starts.
final class PDFOutline {
    private let surface: OpaquePointer
    /// The open entries from the top level down: their level and Cairo outline id.
    private var ancestors: [(level: Int, id: Int32)] = []

    init(surface: OpaquePointer) { self.surface = surface }

    /// Adds an entry at `level` (0 for an article, 1–6 for headings) under the nearest entry above
    /// with a lower level.
    func add(title: String, level: Int, page: Int, y: Double, isOpen: Bool) {
        while let last = ancestors.last, last.level >= level { ancestors.removeLast() }
        let parent = ancestors.last?.id ?? Int32(CAIRO_PDF_OUTLINE_ROOT)
        let name = DisplayTitle.of(title)
        let target = "page=\(page) pos=[0 \(String(format: "%.2f", max(0, y - 4)))]"
        let flags = isOpen ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(rawValue: 0)
        let id = cairo_pdf_surface_add_outline(surface, parent, name, target, flags)
        ancestors.append((level, id))
    }
}
