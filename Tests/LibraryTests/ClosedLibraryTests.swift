import CSQLite
import Foundation
import Testing
@testable import Library

/// A closed library is one file: after any `quire VERB` exits, successfully or not, no log file is
/// left beside `library.quire`, and the file alone, copied somewhere else, holds everything the
/// verb (and every verb before it) did.
@Suite struct ClosedLibraryTests {
    /// What `library.quire` alone holds: its articles' titles, in and out of the trash, and its
    /// outbox, read from a copy of the file without its log as an immutable file.
    struct FileAlone: Equatable, CustomStringConvertible {
        var live: [String] = []
        var trashed: [String] = []
        var outbox = 0
        /// The outbox operations' states (not compared: only the sync worker changes them).
        var outboxStates: [String] = []

        static func == (lhs: FileAlone, rhs: FileAlone) -> Bool {
            (lhs.live, lhs.trashed, lhs.outbox) == (rhs.live, rhs.trashed, rhs.outbox)
        }

        var description: String { "\(live.count) live \(live), \(trashed.count) trashed \(trashed), \(outbox) in the outbox" }
    }

    private func fileAlone(_ library: URL) throws -> FileAlone {
        let elsewhere = try TemporaryFolder()
        let copy = elsewhere.appending("copied.quire")
        try FileManager.default.copyItem(at: library, to: copy)
        var handle: OpaquePointer?
        guard sqlite3_open_v2("file:\(copy.path)?immutable=1", &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK,
              let handle else { throw VerbTestError(message: "cannot open the copy of \(library.path)") }
        defer { sqlite3_close_v2(handle) }
        func rows(_ sql: String) throws -> [String] {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw VerbTestError(message: "the file alone cannot answer \(sql): \(String(cString: sqlite3_errmsg(handle)))")
            }
            defer { sqlite3_finalize(statement) }
            var values: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW { values.append(String(cString: sqlite3_column_text(statement, 0))) }
            return values
        }
        return FileAlone(
            live: try rows("SELECT title FROM Article WHERE trashed IS NULL ORDER BY title, id"),
            trashed: try rows("SELECT title FROM Article WHERE trashed IS NOT NULL ORDER BY title, id"),
            outbox: Int(try rows("SELECT count(*) FROM SyncOperation").first ?? "") ?? -1,
            outboxStates: try rows("SELECT state FROM SyncOperation ORDER BY state"))
    }

    /// Runs one verb and checks the library after it: no log or shared-memory file beside it, and
    /// the file alone as `expected` says (given the file alone before the verb).
    @discardableResult
    private func expectClosed(
        _ arguments: [String], status: Int32 = 0, library: URL, input: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation, expected: (FileAlone) -> FileAlone
    ) throws -> String {
        let before = FileManager.default.fileExists(atPath: library.path) ? try fileAlone(library) : FileAlone()
        let run = try VerbTests().quire(arguments, library: library, input: input)
        #expect(run.status == status, "quire \(arguments.joined(separator: " ")): \(run.error)", sourceLocation: sourceLocation)
        expectNoLogFiles(beside: library, after: arguments[0], sourceLocation: sourceLocation)
        #expect(try fileAlone(library) == expected(before), "after quire \(arguments[0])", sourceLocation: sourceLocation)
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func expectNoLogFiles(beside library: URL, after verb: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: library.path + suffix),
                    "quire \(verb) left \(library.lastPathComponent)\(suffix)", sourceLocation: sourceLocation)
        }
    }

    @Test func everyVerbLeavesTheLibraryFileAloneComplete() throws {
        let folder = try TemporaryFolder()
        let library = folder.appending("library.quire")

        let first = try expectClosed(["new", "--title", "First", "--folder", "Notes"], library: library) { _ in
            FileAlone(live: ["First"], outbox: 1)
        }
        let second = try expectClosed(["new", "--title", "Second", "--body-file", "-"], library: library, input: "Text.\n") {
            FileAlone(live: $0.live + ["Second"], outbox: 2)
        }
        let demo = try VerbTests().quire(["demo", "--articles", "20", "--seed", "5"], library: library)
        #expect(demo.status == 0, "\(demo.error)")
        expectNoLogFiles(beside: library, after: "demo")
        let filled = try fileAlone(library)
        #expect(filled.live.count + filled.trashed.count == 22 && filled.live.contains("First") && filled.live.contains("Second"))

        let unchanged: (FileAlone) -> FileAlone = { $0 }
        try expectClosed(["list"], library: library, expected: unchanged)
        try expectClosed(["show", first], library: library, expected: unchanged)
        try expectClosed(["edit", first, "--title", "First, edited"], library: library) { before in
            var after = before
            after.live = (before.live.filter { $0 != "First" } + ["First, edited"]).sorted()
            return after
        }
        // Error paths close the library too.
        try expectClosed(["edit", first, "--if-revision", "99", "--title", "Never"], status: 75, library: library, expected: unchanged)
        try expectClosed(["resolve", UUID().uuidString.lowercased(), "--keep", "mine"], status: 1, library: library, expected: unchanged)
        try expectClosed(["trash", second], library: library) { before in
            FileAlone(live: before.live.filter { $0 != "Second" }, trashed: (before.trashed + ["Second"]).sorted(), outbox: before.outbox)
        }
        try expectClosed(["restore", second], library: library) { before in
            FileAlone(live: (before.live + ["Second"]).sorted(), trashed: before.trashed.filter { $0 != "Second" }, outbox: before.outbox)
        }
        try expectClosed(["trash", second], library: library) { before in
            FileAlone(live: before.live.filter { $0 != "Second" }, trashed: (before.trashed + ["Second"]).sorted(), outbox: before.outbox)
        }
        let emptied = try expectClosed(["empty-trash"], library: library) { before in
            FileAlone(live: before.live, trashed: [], outbox: before.outbox)
        }
        #expect(!emptied.isEmpty)
        try expectClosed(["folders"], library: library, expected: unchanged)
        try expectClosed(["export", "--format", "md", "--out", folder.appending("exported").path], library: library, expected: unchanged)
        let note = folder.appending("imported.md")
        try "---\ntitle: Imported note\n---\nText from a file.\n".write(to: note, atomically: true, encoding: .utf8)
        try expectClosed(["import", note.path], library: library) { before in
            FileAlone(live: (before.live + ["Imported note"]).sorted(), trashed: before.trashed, outbox: before.outbox + 1)
        }
        try expectClosed(["conflicts"], library: library, expected: unchanged)
        // Nothing listens on port 9: the server cannot be reached (69), and the library is closed
        // all the same, with what the worker recorded (operations waiting to be sent again; one
        // never on the server needs no request to be deleted, so the outbox may shrink).
        let beforeSync = try fileAlone(library)
        let sync = try VerbTests().quire(["sync", "--server", "http://127.0.0.1:9", "--token", "t", "--timeout", "1"], library: library)
        #expect(sync.status == 69, "\(sync.error)")
        expectNoLogFiles(beside: library, after: "sync")
        let afterSync = try fileAlone(library)
        #expect(afterSync.live == beforeSync.live && afterSync.trashed == beforeSync.trashed && afterSync.outbox <= beforeSync.outbox)
        #expect(!beforeSync.outboxStates.contains("waitingRetry") && afterSync.outboxStates.contains("waitingRetry"), "\(afterSync.outboxStates)")
        try expectClosed(["account", "show"], library: library, expected: unchanged)
        try expectClosed(["check"], library: library, expected: unchanged)
        try expectClosed(["migrate"], library: library, expected: unchanged)
    }

    @Test func anUpgradeLeavesTheUpgradedFileAloneComplete() throws {
        let folder = try TemporaryFolder()
        let library = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
        let before = try fileAlone(library)
        #expect(!before.live.isEmpty)
        try expectClosed(["migrate"], library: library) { _ in before }
    }
}
