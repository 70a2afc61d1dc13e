import CGtk

extension Widget {
    /// Renders the widget as it is drawn now, at its allocated size, with its window's renderer
    /// (`GSK_RENDERER` picks it). For a window this is the whole window, header bar included.
    ///
    /// Call it after the first frame (``afterNextFrame(_:)``), when layout is done.
    public func renderTexture() throws(RenderError) -> Texture {
        guard let native = gtk_widget_get_native(widgetPointer),
            let renderer = gtk_native_get_renderer(native)
        else { throw .notRealized(widget: typeName) }
        let width = Double(self.width)
        let height = Double(self.height)
        guard width > 0, height > 0 else { throw .emptySize(widget: typeName) }

        let paintable = gtk_widget_paintable_new(widgetPointer)
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { throw .nothingDrawn(widget: typeName) }
        defer { gsk_render_node_unref(node) }
        var viewport = graphene_rect_t(
            origin: graphene_point_t(x: 0, y: 0), size: graphene_size_t(width: Float(width), height: Float(height)))
        return Texture(owning: gsk_renderer_render_texture(renderer, node, &viewport))
    }
}
