import CGtk
import Foundation
import GtkKit
import Library
import Platform
import QuireTestSupport
import XCTest

@testable import QuireUI

/// Pasting and dropping an image into an article the way a writer does, through the X server:
/// another program (a small GTK 4 program in Python, Debian's `python3-gi`) owns the display's
/// clipboard with a PNG and Ctrl+V is pressed through XTEST (`xdotool`), or it offers a file to
/// drag and the pointer drags it onto the text (XDND between the two programs). The editor meets
/// the data as GDK sees another program's (mime types, read asynchronously), not as values this
/// process set.
final class EditorAttachmentXEventTests: MainWindowTestCase, @unchecked Sendable {
    private let harbour = UUID()

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requireXdotool()
        guard FileManager.default.isExecutableFile(atPath: Self.python), Self.hasGtk4ForPython else {
            throw XCTSkip("needs /usr/bin/python3 with GTK 4 through gi (python3-gi, gir1.2-gtk-4.0; meson-helpers/packages.sh installs them)")
        }
    }

    private static let python = "/usr/bin/python3"

    private static let hasGtk4ForPython: Bool = {
        let check = Process()
        check.executableURL = URL(filePath: python)
        check.arguments = ["-c", "import gi; gi.require_version('Gtk', '4.0'); from gi.repository import Gtk"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }()

    /// The other program: owns the clipboard with the PNG file given, as `image/png` only (as a
    /// browser's "Copy Image" offers it), says `ready` once it does, and quits when its standard
    /// input closes.
    private static let clipboardOwner = """
        import sys, gi
        gi.require_version("Gtk", "4.0")
        gi.require_version("Gdk", "4.0")
        from gi.repository import Gtk, Gdk, GLib
        Gtk.init()
        with open(sys.argv[1], "rb") as png:
            provider = Gdk.ContentProvider.new_for_bytes("image/png", GLib.Bytes.new(png.read()))
        clipboard = Gdk.Display.get_default().get_clipboard()
        clipboard.set_content(provider)
        loop = GLib.MainLoop()
        GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, lambda *args: loop.quit())
        print("ready", flush=True)
        loop.run()
        """

    /// The other program's drag source: a window titled `quire-drag-source` whose label drags the
    /// file given as `text/uri-list` (as a file manager does); says `ready` once shown, `dropped`
    /// when a drag ends, and quits when its standard input closes.
    private static let dragSource = """
        import sys, gi
        gi.require_version("Gtk", "4.0")
        gi.require_version("Gdk", "4.0")
        from gi.repository import Gtk, Gdk, Gio, GLib
        Gtk.init()
        uri = Gio.File.new_for_path(sys.argv[1]).get_uri()
        window = Gtk.Window(title="quire-drag-source")
        window.set_default_size(160, 160)
        label = Gtk.Label(label="drag me")
        source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
        source.connect("prepare", lambda *args: Gdk.ContentProvider.new_for_bytes("text/uri-list", GLib.Bytes.new((uri + "\\r\\n").encode())))
        source.connect("drag-end", lambda *args: print("dropped", flush=True))
        label.add_controller(source)
        window.set_child(label)
        loop = GLib.MainLoop()
        GLib.io_add_watch(sys.stdin.fileno(), GLib.IO_IN | GLib.IO_HUP, lambda *args: loop.quit())
        window.connect("map", lambda *args: print("ready", flush=True))
        window.present()
        loop.run()
        """

    /// Runs `body` in the app with the article Harbour ("The tide.\n") open, and a temporary folder.
    private func withHarbourOpen(_ body: @escaping @MainActor (MainWindow, URL) async throws -> Void) throws {
        let harbour = harbour
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "The tide.\n"), id: harbour)
        }
        let folder = try makeTemporaryFolder()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            try await body(window, folder)
        }
    }

    /// Starts `script` with `arguments` under Python and waits for its `ready`; closing its
    /// standard input (`stop`) ends it.
    private func start(_ script: String, named name: String, _ arguments: [String]) async throws -> (process: Process, stop: () -> Void) {
        let file = try makeTemporaryFolder().appending(path: name)
        try script.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(filePath: Self.python)
        process.arguments = [file.path] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let ready = try await BlockingWork.run { try output.fileHandleForReading.read(upToCount: 6) }
        XCTAssertEqual(ready.map { String(decoding: $0, as: UTF8.self) }, "ready\n", "\(name) started")
        return (process, {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        })
    }

    /// A file dragged from the other program's window and dropped on the text with the pointer
    /// (button 1 held through XTEST): stored byte for byte, its reference where it was dropped.
    func testAFileDraggedFromAnotherProgramIsDroppedIntoTheText() throws {
        let harbour = harbour
        try withHarbourOpen { window, folder in
            try await self.resize(window, to: 1000, height: 700)
            let png = folder.appending(path: "harbour chart.png")
            try await self.renderWhenDrawn(window.window, to: png.path)
            let source = try await self.start(Self.dragSource, named: "drag-source.py", [png.path])
            defer { source.stop() }
            // Without a window manager both windows open at the screen's corner: the source goes
            // to the far corner, beyond the editor's window.
            try press(["search", "--sync", "--name", "quire-drag-source", "windowmove", "1400", "1000"])

            let editor = window.editor
            editor.focusBody()
            var x = 0.0
            var y = 0.0
            // Below the text, in the body's empty part: the end of the text is the drop point.
            XCTAssertNotEqual(gtk_widget_translate_coordinates(editor.bodyView.widgetPointer, window.window.widgetPointer, 40, 300, &x, &y), 0)
            var surfaceX = 0.0
            var surfaceY = 0.0
            gtk_native_get_surface_transform(OpaquePointer(window.window.widgetPointer), &surfaceX, &surfaceY)
            let target = (Int(x + surfaceX), Int(y + surfaceY))
            try press([
                "mousemove", "--sync", "1480", "1080", "mousedown", "1", "sleep", "0.2",
                "mousemove", "--sync", "1460", "1060", "sleep", "0.2",
                "mousemove", "--sync", "\(target.0 + 20)", "\(target.1 + 20)", "sleep", "0.3",
                "mousemove", "--sync", "\(target.0)", "\(target.1)", "sleep", "0.5", "mouseup", "1",
            ])
            try await self.until { editor.body.contains("](attachment:") }
            try await self.until { editor.attachments.readsRunning == 0 }

            let bytes = try Data(contentsOf: png)
            let reference = AttachmentReference(sha256: SHA256.hex(bytes), fileName: "harbour chart.png")
            XCTAssertEqual(editor.body, "The tide.\n" + reference.markdown(mediaType: AttachmentMediaType.png))
            let stored = try await window.library.attachmentData(sha256: reference.sha256, of: harbour)
            XCTAssertEqual(stored, bytes, "every byte of the dragged file")
        }
    }

    func testCtrlVPastesAnImageAnotherProgramCopied() throws {
        let harbour = harbour
        try withHarbourOpen { window, folder in
            // The window as it is drawn now: a real picture, written as a PNG file.
            let png = folder.appending(path: "copied.png")
            try await self.renderWhenDrawn(window.window, to: png.path)
            let copied = try Texture(contentsOfFile: png.path)

            let owner = try await self.start(Self.clipboardOwner, named: "clipboard-owner.py", [png.path])
            defer { owner.stop() }

            let editor = window.editor
            let clipboard = editor.bodyView.clipboard
            // GDK hears of the new owner from the X server, then offers its image as a texture.
            try await self.until { clipboard.offersTexture && !clipboard.offersText }
            editor.focusBody()
            editor.buffer.select(10..<10)
            try await self.until { editor.bodyView.hasFocus && gtk_window_is_active(window.window.windowPointer) != 0 }
            try press(["key", "ctrl+v"])
            try await self.until { editor.body.contains("](attachment:") }

            let attachments = try await window.library.attachments(of: harbour)
            let attachment = try XCTUnwrap(attachments.first)
            XCTAssertEqual(attachments.count, 1)
            XCTAssertEqual(editor.body, "The tide.\n" + attachment.reference.markdown(mediaType: AttachmentMediaType.png))
            let stored = try await window.library.attachmentData(sha256: attachment.sha256, of: harbour)
            let decoded = try Texture(encoded: [UInt8](try XCTUnwrap(stored)))
            XCTAssertEqual([decoded.width, decoded.height], [copied.width, copied.height])
            XCTAssertEqual(decoded.pixels(), copied.pixels(), "the other program's picture, pixel for pixel")
            // One Ctrl+Z, pressed as well, takes the reference out.
            try press(["key", "ctrl+z"])
            try await self.until { editor.body == "The tide.\n" }
        }
    }
}
