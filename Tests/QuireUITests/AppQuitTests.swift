import Foundation
import Library
import ObjectGraph
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The real `quire` under Xvfb, driven over D-Bus like any GAction (no key presses to lose): the
/// library file alone holds every save once the app has sat idle a few seconds, and again once it
/// has quit, with no log file left beside it.
final class AppQuitTests: QuireTestCase, @unchecked Sendable {
    func testTheLibraryFileAloneIsCompleteWhenTheAppIsIdleAndAfterItQuits() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus: run under dbus-run-session (meson-helpers/test.sh does)")
        }
        let folder = try makeTemporaryFolder()
        let library = folder.appending(path: "library.quire")
        let app = Process()
        app.executableURL = Self.quireExecutable
        app.arguments = ["--library", library.path]
        var variables = ProcessInfo.processInfo.environment
        variables["GSETTINGS_SCHEMA_DIR"] = try Self.schemaFolder.get().path
        variables["GSETTINGS_BACKEND"] = "memory"
        app.environment = variables
        app.standardOutput = FileHandle.nullDevice
        app.standardError = FileHandle.nullDevice
        try app.run()
        defer { if app.isRunning { app.terminate() } }
        let objectPath = "/" + Quire.applicationID.replacingOccurrences(of: ".", with: "/")
        try waitUntil("quire owns \(Quire.applicationID)") {
            let reply = try ProgramRun(URL(filePath: "/usr/bin/env"), [
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", Quire.applicationID,
            ])
            return reply.output.contains("true")
        }

        // win.new-article saves a new article at once; the window's actions are on the bus as
        // GtkApplicationWindow exports them.
        try waitUntil("the main window takes win.new-article") {
            try activate("new-article", at: objectPath + "/window/1") && (try articlesSaved(in: library)) == 1
        }
        // Idle: the app checkpoints, and the file alone holds the article while the app runs on.
        try waitUntil("the idle app's library file alone holds the article") { try articlesInFileAlone(library) == 1 }
        XCTAssertTrue(app.isRunning)

        // A second article, then quit before the app is idle again: closing the library on the way
        // out is what puts it in the file.
        XCTAssertTrue(try activate("new-article", at: objectPath + "/window/1"))
        try waitUntil("the second article is saved") { try articlesSaved(in: library) == 2 }
        XCTAssertEqual(try articlesInFileAlone(library), 1, "the second article is in the log only, for now")
        XCTAssertTrue(try activate("quit", at: objectPath))
        try waitUntil("quire quits") { !app.isRunning }
        XCTAssertEqual(app.terminationStatus, 0)

        for suffix in ["-wal", "-shm"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: library.path + suffix), "quire left \(suffix)")
        }
        XCTAssertEqual(try articlesInFileAlone(library), 2)
    }

    /// Activates a GAction exported at `objectPath`; false when the bus has none there yet.
    private func activate(_ action: String, at objectPath: String) throws -> Bool {
        let result = try ProgramRun(URL(filePath: "/usr/bin/env"), [
            "gdbus", "call", "--session", "--dest", Quire.applicationID, "--object-path", objectPath,
            "--method", "org.gtk.Actions.Activate", action, "[]", "{}",
        ])
        return result.status == 0
    }

    /// The articles the library holds, read as the app sees it (its log included) through a
    /// read-only store, which leaves the log to the app.
    private func articlesSaved(in library: URL) throws -> Int {
        guard FileManager.default.fileExists(atPath: library.path) else { return 0 }
        var description = StoreDescription.file(library)
        description.isReadOnly = true
        let container = try PersistentContainer(schema: LibrarySchema.current, store: description)
        defer { container.close() }
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<StoredArticle>()) }
    }

    /// The articles `library.quire` alone holds: the file copied without its log and opened there.
    private func articlesInFileAlone(_ library: URL) throws -> Int {
        let elsewhere = try makeTemporaryFolder()
        let copy = elsewhere.appending(path: "copy.quire")
        try FileManager.default.copyItem(at: library, to: copy)
        // (A file whose tables are still in the log only opens as a new, empty store.)
        let container = try PersistentContainer(schema: LibrarySchema.current, store: .file(copy))
        defer { container.close() }
        let context = container.newBackgroundContext()
        return try context.performAndWait { try context.count(for: FetchRequest<StoredArticle>()) }
    }
}
