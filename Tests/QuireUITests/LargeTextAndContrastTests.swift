import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// The main window for a writer who needs twice the text size or high contrast, as the desktop
/// asks for them: GTK's `gtk-xft-dpi` doubled, as GNOME's "Large Text" and a 2× text scale do, and
/// GNOME's `org.gnome.desktop.a11y.interface high-contrast`, which libadwaita reads (without a
/// settings portal) and turns into its high-contrast style; GTK's `gtk-theme-name` HighContrast is
/// read by libadwaita 1.2 only when that schema is missing. Every label shows its whole text inside
/// its own allocation and inside the window, and a screenshot of each is kept. The settings are
/// the process's (the memory backend's): each is put back after its case.
final class LargeTextAndContrastTests: MainWindowTestCase, @unchecked Sendable {
    private static let dpiProperty = "gtk-xft-dpi"
    @MainActor private static var settings: Object { Object(retaining: UnsafeMutableRawPointer(gtk_settings_get_default()!)) }

    func testTwiceTheTextSizeKeepsEveryLabelWhole() throws {
        // GTK's unit: 1024ths of a dot per inch; 96 is the text size the screen is made for.
        MainActor.assumeIsolated { Self.settings.setProperty(Self.dpiProperty, Int32(2 * 96 * 1024)) }
        defer { gtk_settings_reset_property(gtk_settings_get_default(), Self.dpiProperty) }
        try checkWindow(screenshot: "window-large-text.png") { window in
            // The widgets lay out their text at twice the resolution, so at twice the size.
            let context = gtk_widget_get_pango_context(window.editor.titleField.view.widgetPointer)
            XCTAssertEqual(pango_cairo_context_get_resolution(context), 192, "text is laid out at 2 × 96 dpi")
        }
    }

    func testHighContrastKeepsEveryLabelWhole() throws {
        let a11y = g_settings_new("org.gnome.desktop.a11y.interface")
        g_settings_set_boolean(a11y, "high-contrast", 1)
        defer {
            g_settings_reset(a11y, "high-contrast")
            g_object_unref(a11y)
        }
        try checkWindow(screenshot: "window-high-contrast.png") { _ in
            XCTAssertNotEqual(adw_style_manager_get_high_contrast(adw_style_manager_get_default()), 0, "libadwaita took the high-contrast style")
        }
    }

    /// The window over a small library with an article open, at 1200 × 800: `check` runs, then
    /// every label is checked and the window is saved as `screenshot`.
    private func checkWindow(screenshot: String, _ check: @escaping @MainActor (MainWindow) throws -> Void) throws {
        let url = try makeLibrary { library in
            for title in ["Harbour log", "Field notes on the morning tide", "Letters"] {
                let article = try await library.createArticle(ArticleContent(title: title, body: "The boats sat high against the wall.\n"))
                for tag in ["harbour", "drafts"] { try await library.tagArticles([article.id], with: tag) }
            }
        }
        let folder = try screenshotFolder()
        drive(url) { window in
            try await self.resize(window, to: 1200)
            try self.open("Harbour log", in: window)
            try await self.until { window.session?.article.title == "Harbour log" }
            // A folded window slides to the editor: wait until the panes stand still.
            try await self.until { Self.panesAreInPlace(in: window.leaflet) }
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: screenshot).path)
            try check(window)
            let clipped = Self.clippedLabels(in: window.window)
            XCTAssertEqual(clipped, [], "labels whose text does not fit")
        }
    }

    /// The mapped labels whose text reaches past their allocation (an ellipsized label shows "…"
    /// on purpose and is left out) or past the window's edge (a label in a scrolled list may lie
    /// beyond the list's viewport: that is scrolled, not cut).
    @MainActor
    static func clippedLabels(in window: Window) -> [String] {
        var clipped: [String] = []
        for label in window.descendants(ofType: gtk_label_get_type()) where label.isMapped {
            let text = String(cString: gtk_label_get_text(label.opaquePointer))
            guard !text.isEmpty, label.width > 0 else { continue }
            let layout = gtk_label_get_layout(label.opaquePointer)
            var width: Int32 = 0
            var height: Int32 = 0
            pango_layout_get_pixel_size(layout, &width, &height)
            if pango_layout_is_ellipsized(layout) == 0 && (Int(width) > label.width + 1 || Int(height) > label.height + 1) {
                clipped.append("\(text): \(width)×\(height) text in \(label.width)×\(label.height)")
            }
            var bounds = graphene_rect_t()
            let scrolled = gtk_widget_get_ancestor(label.widgetPointer, gtk_scrolled_window_get_type()) != nil
            guard !scrolled, gtk_widget_compute_bounds(label.widgetPointer, window.widgetPointer, &bounds) != 0 else { continue }
            let right = Double(bounds.origin.x + bounds.size.width)
            let bottom = Double(bounds.origin.y + bounds.size.height)
            if bounds.origin.x < -0.5 || bounds.origin.y < -0.5 || right > Double(window.width) + 0.5 || bottom > Double(window.height) + 0.5 {
                clipped.append("\(text): past the window's edge")
            }
        }
        return clipped
    }
}
