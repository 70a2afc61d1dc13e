import CPangoCairo

/// A Pango font map (fonts found through fontconfig) owned by one export job.
///
/// Pango's default font map is per thread and a font map must not be used from two threads at
/// once; an export job's work may move between threads at every `await`, while another job runs on
/// the thread it left. Each job therefore brings its own font map, used only by its own task.
final class PDFFontMap {
    /// The `PangoFontMap`.
    let fontMap: UnsafeMutablePointer<PangoFontMap>

    init() {
        fontMap = pango_cairo_font_map_new()
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(fontMap)) }

    /// A Pango context for laying out text on `cairo`, at 72 dots per inch so that a point size in
    /// Pango is the same number of PDF points.
    func makeContext(for cairo: OpaquePointer) -> OpaquePointer {
        let context = pango_font_map_create_context(fontMap)!
        pango_cairo_update_context(cairo, context)
        pango_cairo_context_set_resolution(context, 72)
        return context
    }
}
