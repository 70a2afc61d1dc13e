import Foundation
import GtkKit
import Library
import Transfer
import ObjectGraph
import SyncClient
import XCTest

@testable import QuireUI

/// What the writer reads when something fails: a sentence from ``ErrorExplanation`` (the one
/// mapping of Library, ObjectGraph and SyncClient errors), the details behind an expander.
final class ErrorPresenterTests: QuireTestCase, @unchecked Sendable {
    private let library = "/home/writer/.local/share/quire/library.quire"

    func testLibraryErrorsReadAsLibrarySentences() {
        let full = StoreError(kind: .noSpace, resultCode: 13, message: "database or disk is full", statement: "INSERT INTO Article", path: library)
        let explanation = ErrorExplanation(full, libraryPath: library)
        XCTAssertEqual(explanation.sentence, LibraryProblem.classify(full, path: library).message.translated, "Library's sentence, not a new one")
        XCTAssertTrue(explanation.sentence.contains("library.quire") && explanation.sentence.contains("disk is full"), explanation.sentence)
        XCTAssertFalse(explanation.sentence.contains("SQLite"), "the technical part stays in the details")
        XCTAssertEqual(explanation.details, String(describing: full))

        let problem = LibraryProblem(.busy, path: library, detail: "database is locked")
        XCTAssertEqual(ErrorExplanation(problem, libraryPath: library).sentence, problem.message.translated)
    }

    func testEveryKindOfErrorReadsAsASentence() {
        let cases: [(any Error, String)] = [
            (LibraryError.folderExists("Notes"), "A folder named “Notes” exists already. Choose another name."),
            (LibraryError.invalidName(kind: "folder", name: " ", reason: .empty), "“ ” cannot be a folder name: it is empty."),
            (LibraryError.articleNotFound(UUID()), "The article is no longer in the library: it was deleted, here or on another device."),
            (ObjectGraphError.mergeConflicts([]),
             "Another change to the same article was saved at the same moment, so nothing was changed. Try again."),
            (ExportError.invalidDestination(path: "/tmp/no/such/out.json", reason: "the folder /tmp/no/such does not exist"),
             "Quire cannot export to “out.json”: the folder /tmp/no/such does not exist."),
            (ExportError.fileSystem(operation: "write", path: "/media/usb/Notes.md", code: ENOSPC),
             "Quire could not write “Notes.md”: No space left on device."),
            (ImportError.notUTF8(path: "/home/writer/latin1.md"), "“latin1.md” could not be read: not UTF-8 text."),
            (AccountError.invalidServer("not a url"), "“not a url” is not an http or https URL."),
            (AccountError.tokenRefused(detail: "revoked"), "The server refused the account’s token. Sign in again."),
            (TransportError.notSent(TransportFailure(method: "GET", path: "/v1/changes", reason: "connection refused")),
             "The server cannot be reached."),
            (RequestRejection(reason: .tooLarge, status: 413, detail: "over the limit"), "The article is larger than the server accepts."),
            (CancellationError(), "The work was stopped before it finished."),
            (TagError.tagNotFound("essay"),
             "There is no tag named “essay” any more: it was renamed or deleted, here or on another device."),
            (HistoryError.versionNotFound(UUID()),
             "That earlier version is no longer kept: Quire thins out old versions to keep the library small."),
            (HistoryError.ambiguousVersionID("ab", matches: [UUID(), UUID()]),
             "2 earlier versions have IDs that begin that way. Give more of the ID."),
            (ConflictLookupError.noMatch("ab"), "No article has an open conflict with that ID: it may have been resolved already."),
            (ConflictLookupError.severalConflicts(article: UUID(), conflicts: [UUID(), UUID(), UUID()]),
             "The article has 3 open conflicts. Choose one of them by its own ID."),
        ]
        for (error, sentence) in cases {
            let explanation = ErrorExplanation(error, libraryPath: library)
            XCTAssertEqual(explanation.sentence, sentence, String(describing: error))
            XCTAssertEqual(explanation.details, String(describing: error))
        }
        struct Unknown: Error {}
        XCTAssertTrue(ErrorExplanation(Unknown()).sentence.hasPrefix("Something went wrong that Quire cannot explain."))
    }

    func testAPresentedErrorShowsTheSentenceAndTheDetailsBehindAnExpander() throws {
        try MainActor.assumeIsolated {
            let window = Window()
            defer { window.destroy() }
            window.present()
            let presenter = ErrorPresenter(libraryPath: library, over: window)
            presenter.present("Could not create the folder “Notes”", LibraryError.folderExists("Notes"))
            let dialog = try XCTUnwrap(presenter.dialog)
            XCTAssertTrue(dialog.window.isVisible)
            XCTAssertEqual(dialog.window.transientFor?.objectPointer, window.objectPointer)
            XCTAssertEqual(dialog.window.heading, "Could not create the folder “Notes”")
            XCTAssertEqual(dialog.window.body, "A folder named “Notes” exists already. Choose another name.")
            XCTAssertTrue(dialog.details.isVisible)
            XCTAssertFalse(dialog.details.isExpanded, "the details wait behind the expander")
            XCTAssertEqual(dialog.detailsLabel.text, "a folder named 'Notes' exists already")
            XCTAssertEqual(dialog.window.label(ofResponse: "close"), "_Close")
            XCTAssertEqual(presenter.shown, [
                "Could not create the folder “Notes”: A folder named “Notes” exists already. Choose another name. "
                    + "(a folder named 'Notes' exists already)",
            ])

            let close = try XCTUnwrap(dialog.window.descendants(ofType: Button.self).first { $0.label == "_Close" })
            XCTAssertTrue(close.activate())
            spinMainLoop { presenter.dialog == nil }
        }
    }

    func testBackgroundWorkReportsItsFailureThroughThePresenter() throws {
        try MainActor.assumeIsolated {
            let presenter = ErrorPresenter(libraryPath: library, over: nil)
            let ranThen = Flag()
            presenter.run("Could not rename the folder “Notes”") { throw LibraryError.folderNotFound("Notes") }
            presenter.run("Could not read the folders") { { ranThen.isSet = true } }
            var waited = false
            Task { @MainActor in
                await presenter.waitForPendingWork()
                waited = true
            }
            spinMainLoop { waited }
            XCTAssertTrue(ranThen.isSet, "a success runs its closure on the main actor")
            XCTAssertEqual(presenter.shown.count, 1)
            XCTAssertTrue(presenter.shown[0].hasPrefix("Could not rename the folder “Notes”: There is no folder named “Notes” any more."))
            try XCTUnwrap(presenter.dialog).window.destroy()
        }
    }
}

/// A flag a main-actor closure sets.
@MainActor
private final class Flag {
    var isSet = false
}
