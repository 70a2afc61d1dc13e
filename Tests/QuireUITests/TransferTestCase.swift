import CGtk
import Foundation
import GtkKit
import Library
import XCTest

@testable import QuireUI

/// Base of the export and import dialog tests: a temporary library, a parent window holding an
/// `AdwToastOverlay` (as the main window will), and a way to wait for the library's async work
/// while the GTK main loop keeps running.
class TransferTestCase: QuireTestCase, @unchecked Sendable {
    /// The parent window and its toast overlay, made per test.
    @MainActor
    struct Host {
        let window: Window
        let toastOverlay: ToastOverlay
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    /// A new library in a temporary folder.
    func makeLibrary() throws -> Library {
        try Library(url: try makeTemporaryFolder().appending(path: "library.quire"))
    }

    /// A window with a toast overlay as its content, destroyed after the test.
    @MainActor
    func makeHost() -> Host {
        let window = Window()
        window.defaultSize = (900, 640)
        let overlay = ToastOverlay()
        window.child = overlay
        window.present()
        addTeardownBlock { @MainActor in window.destroy() }
        return Host(window: window, toastOverlay: overlay)
    }

    /// Runs `body` off the main thread and spins the main loop until it is done.
    @MainActor
    func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        var result: Result<T, any Error>?
        Task { @MainActor in
            do { result = .success(try await body()) } catch { result = .failure(error) }
        }
        spinMainLoop { result != nil }
        return try XCTUnwrap(result).get()
    }

    /// The names in `folder`, hidden ones included, sorted.
    func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}
