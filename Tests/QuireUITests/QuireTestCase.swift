import CGtk
import Foundation
import GtkKit
import GtkTestSupport
import XCTest

@testable import QuireUI
import QuireTestSupport

/// Base of the Quire UI tests: on GtkTestSupport's `GtkTestCase` (GTK under Xvfb, the main loop,
/// temporary folders, screenshots), the GSettings schema from `data/` compiled into a temporary
/// folder, and helpers to run the real application.
class QuireTestCase: GtkTestCase, @unchecked Sendable {
    /// The package's root folder.
    static let packageRoot = BuiltProduct.packageRoot

    /// The `quire` binary built beside the test bundle.
    // When it is missing, starting it fails with the path that names it.
    static let quireExecutable: URL = (try? BuiltProduct.executable("quire")) ?? URL(filePath: "/quire-is-not-built/quire")

    /// A folder holding `gschemas.compiled` for Quire's schema, compiled once per process.
    static let schemaFolder: Result<URL, Error> = Result(catching: {
        let folder = FileManager.default.temporaryDirectory.appending(path: "quire-ui-tests-schemas-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try Tool.run("glib-compile-schemas", ["--strict", "--targetdir=\(folder.path)", packageRoot.appending(path: "data").path])
        return folder
    })

    /// Quire's settings from the compiled schema, every key back at its default (the memory
    /// backend keeps values for the whole test process).
    @MainActor
    func freshSettings() throws -> Settings {
        let settings = try XCTUnwrap(
            Settings.lookup(schemaID: Quire.settingsSchemaID, inDirectory: Self.schemaFolder.get().path))
        for key in ["window-width", "window-height", "window-maximized"] { settings.reset(key) }
        return settings
    }

    /// Runs the real application (non-unique) over the library at `libraryURL` (a new one in a
    /// temporary folder by default) and calls `opened` once its main window is open. Returns the
    /// exit status; the watchdog fails the test if the application never ends.
    @MainActor
    func runQuire(
        settings: Settings?, libraryURL: URL? = nil, screenshotPath: String? = nil, file: StaticString = #filePath, line: UInt = #line,
        opened: @escaping @MainActor (QuireApplication, MainWindow) -> Void = { _, _ in }
    ) -> Int32 {
        let url: URL
        do {
            url = try libraryURL ?? makeTemporaryFolder().appending(path: "library.quire")
        } catch {
            XCTFail("no temporary folder: \(error)", file: file, line: line)
            return -1
        }
        let quire = QuireApplication(libraryURL: url, settings: settings, screenshotPath: screenshotPath, flags: .nonUnique)
        quire.mainWindowOpened = { [unowned quire] mainWindow in opened(quire, mainWindow) }
        let watchdog = Timeout(milliseconds: Self.watchdogMilliseconds) { [unowned quire] in
            XCTFail("Quire did not quit in time", file: file, line: line)
            for window in quire.application.windows { window.destroy() }
            quire.application.quit()
        }
        let status = quire.run(arguments: ["quire"])
        watchdog.cancel()
        return status
    }

    /// Skips a test that presses real keys (XTEST through `xdotool`) where `xdotool` is missing.
    func requireXdotool() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xdotool") else {
            throw XCTSkip("needs xdotool (meson-helpers/packages.sh installs it)")
        }
    }

    /// Checks `condition` every 50 ms until it holds; throws after 20 seconds (a watchdog, not a
    /// timing assertion).
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        for _ in 0..<400 {
            if try condition() { return }
            usleep(50_000)
        }
        throw WaitTimedOut(what: what)
    }

    struct WaitTimedOut: Error, CustomStringConvertible {
        var what: String
        var description: String { "timed out waiting until \(what)" }
    }

    /// Runs async library code from a synchronous test on the main thread (the library works
    /// on its own queues, never on the main one).
    func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        nonisolated(unsafe) var result: Result<T, any Error>?
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { result = .success(try await body()) } catch { result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try result!.get()
    }
}

/// Checks of a screenshot file.
enum PNGCheck {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether the file starts with the PNG signature.
    static func hasSignature(_ path: String) throws -> Bool {
        Array(try Data(contentsOf: URL(filePath: path)).prefix(8)) == signature
    }
}
