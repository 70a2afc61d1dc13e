import CGtk
import Foundation
import GtkTestSupport
import XCTest

@testable import GtkKit

/// The display's clipboard (an image, files and text put there and read back, as a paste reads
/// them), files and images dropped from other programs (the drop target's handler given real
/// `GdkFileList` and `GdkTexture` values), and a text view handing its pastes to the app first.
final class ClipboardTests: GtkTestCase, @unchecked Sendable {
    /// A 3×2 texture: red, green, blue over white, black, transparent.
    @MainActor
    private func smallTexture() throws -> Texture {
        let picture = try Texture(encoded: Self.pngOf3x2)
        XCTAssertEqual(picture.width, 3)
        return picture
    }

    /// A 3×2 PNG made by `gdk_texture_save_to_png_bytes` from known pixels.
    @MainActor
    private static var pngOf3x2: [UInt8] {
        var pixels: [UInt8] = [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 0,
        ]
        let bytes = g_bytes_new(&pixels, gsize(pixels.count))
        defer { g_bytes_unref(bytes) }
        let texture = gdk_memory_texture_new(3, 2, GDK_MEMORY_R8G8B8A8, bytes, 12)!
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        return Texture(retaining: UnsafeMutableRawPointer(texture)).pngBytes()
    }

    func testATexturePutOnTheClipboardIsReadBackWithItsPixels() throws {
        try MainActor.assumeIsolated {
            let label = Widget(owning: gtk_label_new("x"))
            let texture = try smallTexture()
            let clipboard = label.clipboard
            clipboard.setTexture(texture)
            XCTAssertTrue(clipboard.offersTexture)
            XCTAssertFalse(clipboard.offersFiles)
            XCTAssertFalse(clipboard.offersText)
            var read: Result<Texture, GLibError>?
            Task { @MainActor in
                do throws(GLibError) { read = .success(try await clipboard.readTexture()) } catch { read = .failure(error) }
            }
            spinMainLoop { read != nil }
            let pasted = try XCTUnwrap(read).get()
            XCTAssertEqual(pasted.pixels(), texture.pixels())
            XCTAssertEqual(try Texture(encoded: pasted.pngBytes()).pixels(), texture.pixels(), "PNG bytes round trip")
            XCTAssertThrowsError(try Texture(encoded: Array("not an image".utf8)))
        }
    }

    func testFilesPutOnTheClipboardAreReadBackAsPaths() throws {
        try MainActor.assumeIsolated {
            let folder = try makeTemporaryFolder()
            let paths = [folder.appending(path: "a b.png").path, folder.appending(path: "ü.txt").path]
            let clipboard = Widget(owning: gtk_label_new("x")).clipboard
            clipboard.setFiles(paths)
            XCTAssertTrue(clipboard.offersFiles)
            var read: Result<[String], GLibError>?
            Task { @MainActor in
                do throws(GLibError) { read = .success(try await clipboard.readFiles()) } catch { read = .failure(error) }
            }
            spinMainLoop { read != nil }
            XCTAssertEqual(try XCTUnwrap(read).get(), paths)

            clipboard.setText("tide")
            XCTAssertTrue(clipboard.offersText)
            XCTAssertFalse(clipboard.offersFiles)
            read = nil
            Task { @MainActor in
                do throws(GLibError) { read = .success(try await clipboard.readFiles()) } catch { read = .failure(error) }
            }
            spinMainLoop { read != nil }
            XCTAssertThrowsError(try XCTUnwrap(read).get(), "text is no file list")
        }
    }

    func testFileDropTargetHandsOverDroppedFilesAndImages() throws {
        try MainActor.assumeIsolated {
            let view = TextView(owning: gtk_text_view_new())
            var dropped: [FileDropTarget.Dropped] = []
            let answer = Answer()
            var points: [[Double]] = []
            let target = FileDropTarget(on: view) { value, x, y in
                dropped.append(value)
                points.append([x, y])
                return answer.takes
            }
            XCTAssertEqual(gtk_event_controller_get_propagation_phase(target.controller.opaquePointer), GTK_PHASE_CAPTURE)
            XCTAssertTrue(target.drop(files: ["/tmp/a.png", "/tmp/b c.txt"], x: 3, y: 4))
            XCTAssertEqual(points, [[3, 4]])
            guard case .files(let paths) = dropped.last else { return XCTFail("\(dropped)") }
            XCTAssertEqual(paths, ["/tmp/a.png", "/tmp/b c.txt"])
            answer.takes = false
            let texture = try smallTexture()
            XCTAssertFalse(target.drop(texture), "the handler's answer")
            guard case .texture(let image) = dropped.last else { return XCTFail("\(dropped)") }
            XCTAssertEqual(image.pixels(), texture.pixels())
        }
    }

    func testATextViewPastesOnlyWhatTheAppDoesNotTake() {
        MainActor.assumeIsolated {
            let view = TextView(owning: gtk_text_view_new())
            let window = Window()
            defer { window.destroy() }
            gtk_window_set_child(window.windowPointer, view.widgetPointer)
            XCTAssertEqual(view.enclosingWindow?.objectPointer, window.objectPointer)
            XCTAssertNil(Widget(owning: gtk_label_new("x")).enclosingWindow)
            let buffer = TextBuffer(retaining: UnsafeMutableRawPointer(gtk_text_view_get_buffer(view.pointer(as: GtkTextView.self))))
            var taken = 0
            let answer = Answer()
            view.takePastes {
                taken += 1
                return answer.takes
            }
            view.clipboard.setText("gulls")
            XCTAssertTrue(view.activateAction("clipboard.paste"))
            spinMainLoop { taken == 1 }
            XCTAssertEqual(buffer.text, "", "taken by the app")
            answer.takes = false
            XCTAssertTrue(view.activateAction("clipboard.paste"))
            spinMainLoop { buffer.text == "gulls" }
            XCTAssertEqual(taken, 2)
        }
    }
}

/// Whether a handler takes what it is given, changed by the test between calls.
private final class Answer: @unchecked Sendable {
    var takes = true
}
