import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The library window's logic against temporary libraries: sidebar filters and counts, search
/// (also typed at once after Ctrl+F), sort, new articles with autosave and their outbox
/// operation, trash, folders, the screenshot of a demo library, and a conflict met while saving.
final class MainWindowTests: MainWindowTestCase, @unchecked Sendable {
    func testSidebarFiltersSearchAndSortChooseTheListedArticles() throws {
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            let alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "rivers and bridges", folder: "Essays"))
            try await library.setFavorite(true, for: [alpha.id])
            try await library.createArticle(ArticleContent(title: "Beta", body: "mountains", folder: "Essays"))
            try await library.createArticle(ArticleContent(title: "Gamma", body: "bridges at night"))
            let delta = try await library.createArticle(ArticleContent(title: "Delta", body: "gone"))
            try await library.moveToTrash([delta.id])
        }
        drive(url) { window in
            try await self.until { window.sidebar.folders.count == 1 }
            XCTAssertEqual(window.sidebar.items, [.all, .favorites, .folder("Essays"), .trash])
            XCTAssertEqual(window.sidebar.countText(ofFolder: "Essays"), "2")
            XCTAssertEqual(Set(self.titles(window)), ["Alpha", "Beta", "Gamma"])

            window.sidebar.select(.favorites)
            XCTAssertEqual(self.titles(window), ["Alpha"])
            window.sidebar.select(.folder("Essays"))
            XCTAssertEqual(Set(self.titles(window)), ["Alpha", "Beta"])
            window.sidebar.select(.trash)
            XCTAssertEqual(self.titles(window), ["Delta"])
            XCTAssertFalse(window.window.action(named: "trash-article")?.isEnabled ?? true, "nothing to trash in the Trash")
            window.sidebar.select(.all)

            // Sort by title through the sort menu's action.
            g_action_group_activate_action(window.window.actionMapPointer, "sort", g_variant_new_string("title"))
            XCTAssertEqual(self.titles(window), ["Alpha", "Beta", "Gamma"])

            // Search as you type, in the same list (word prefixes, title and body).
            let entry = window.searchEntry
            gtk_editable_set_text(entry.opaquePointer, "bridg")
            try await self.until { window.articleList.query.searchText == "bridg" }
            XCTAssertEqual(window.articleList.count, 2)
            XCTAssertEqual(self.titles(window), ["Alpha", "Gamma"])
            gtk_editable_set_text(entry.opaquePointer, "nothing-like-this")
            try await self.until { window.articleList.count == 0 }
            XCTAssertTrue(window.articleList.query.isSearching)
            XCTAssertEqual(window.articleList.emptyStateTitle, "No Results")
        }
    }

    /// The window opens before the counts are read (off the main thread): until they arrive the
    /// sidebar shows its places without a count (it showed "All Articles 0" and no folders), then
    /// the counts and the folders.
    func testTheSidebarShowsNoCountUntilTheCountsAreRead() throws {
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            let alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "", folder: "Essays"))
            try await library.setFavorite(true, for: [alpha.id])
            try await library.createArticle(ArticleContent(title: "Beta", body: ""))
        }
        MainActor.assumeIsolated {
            let status = runQuire(settings: nil, libraryURL: url) { quire, window in
                // As the window opens, before the main loop has turned once: no reading has arrived.
                XCTAssertEqual(window.sidebar.items, [.all, .favorites, .trash])
                XCTAssertNil(window.sidebar.countText(of: .all))
                XCTAssertNil(window.sidebar.countText(of: .favorites))
                Task { @MainActor in
                    do {
                        try await self.until { window.sidebar.countText(of: .all) == "2" }
                        XCTAssertEqual(window.sidebar.countText(of: .favorites), "1")
                        XCTAssertEqual(window.sidebar.countText(ofFolder: "Essays"), "1")
                    } catch {
                        XCTFail("\(error)")
                    }
                    quire.application.activateAction(named: "quit")
                }
            }
            XCTAssertEqual(status, 0)
        }
    }

    func testNewArticleIsAutosavedWithItsOutboxOperationAndTrashedFromTheList() throws {
        let url = try makeLibrary { _ in }
        drive(url) { window in
            XCTAssertEqual(window.articleList.emptyStateTitle, "No Articles")
            XCTAssertTrue(window.window.activateAction(named: "new-article"))
            let session = try XCTUnwrap(window.session)
            XCTAssertEqual(window.articleList.count, 1)
            XCTAssertEqual(window.articleList.selectedID, session.objectID)

            type("Field notes", into: window.editor.titleField.view)
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "Low tide at six.", -1)
            XCTAssertTrue(session.hasUnsavedChanges)
            // The autosave after the pause: article and outbox operation in the store.
            let id = session.articleID
            try await self.until { try await window.library.article(id).body == "Low tide at six." }
            let saved = try await window.library.article(id)
            XCTAssertEqual(saved.title, "Field notes")
            // The editor takes the save in once its commit has returned.
            try await self.until { !session.hasUnsavedChanges }
            let operations = try await window.library.container.performBackgroundTask { context in
                try context.fetch(FetchRequest<SyncOperation>(predicate: \.articleID == id)).map { ($0.change, try $0.contentToSend()?.body) }
            }
            XCTAssertEqual(operations.count, 1, "autosaves rewrite the one pending operation")
            XCTAssertEqual(operations.first?.0, .put)
            XCTAssertEqual(operations.first?.1, "Low tide at six.")

            XCTAssertTrue(window.window.activateAction(named: "trash-article"))
            await window.waitForPendingWork()
            try await self.until { window.articleList.count == 0 }
            XCTAssertNil(window.session)
            let trashed = try await window.library.article(id).trashed
            XCTAssertNotNil(trashed)
            window.sidebar.select(.trash)
            XCTAssertEqual(self.titles(window), ["Field notes"])
        }
    }

    func testQuittingRightAfterAnAutosaveLeavesNoRecoveryCopy() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Tide table", body: ""))
        }
        drive(url) { window in
            XCTAssertTrue(window.articleList.select(window.articleList.article(at: 0).objectID))
            let id = try XCTUnwrap(window.session?.articleID)
            // The first edit's recovery copy is written at once, the next one two seconds later;
            // the autosave comes a second after the last edit, and the test quits right after it.
            window.editor.buffer.insertAtCursor("High")
            try await self.until { try await window.library.unrecoveredDrafts().map(\.body) == ["High"] }
            window.editor.buffer.insertAtCursor(" water at noon.")
            try await self.until { try await window.library.article(id).body == "High water at noon." }
        }
        // Quitting waited for the copy's removal: none is left to be offered back as unsaved text.
        let copies = try blocking {
            try await Library(url: url).container.performBackgroundTask { context in
                try context.count(for: FetchRequest<DraftRecovery>())
            }
        }
        XCTAssertEqual(copies, 0)
    }

    /// A window opened where the disk has no room to set aside the rescue file's space says that
    /// this is what failed, and that nothing is lost, when the editor next hears from the recorder
    /// (closing an article): not that a recovery copy could not be removed.
    func testSpaceNotSetAsideForUnsavedTextIsSaidAsSuch() throws {
        try XCTSkipUnless(geteuid() == 0, "mounts a small tmpfs")
        // Room for the library, not for the rescue file's 8 MB.
        let mount = try ScratchMount(megabytes: 6)
        defer { mount.unmount() }
        let url = try makeLibrary(in: mount.url) { library in
            try await library.createArticle(ArticleContent(title: "Tide table", body: ""))
            try await library.createArticle(ArticleContent(title: "Harbour log", body: ""))
        }
        let heading = "Could not set aside space for a spare copy of unsaved text"
        drive(url, expectedErrorHeadings: [heading]) { window in
            try self.open("Tide table", in: window)
            let id = try XCTUnwrap(window.session?.articleID)
            window.editor.buffer.insertAtCursor("High water at noon.")
            try await self.until { try await window.library.article(id).body == "High water at noon." }
            try self.open("Harbour log", in: window)
            try await self.until { !window.shownErrors.isEmpty }
            XCTAssertEqual(window.shownErrors.count, 1)
            XCTAssertTrue(window.shownErrors[0].hasPrefix(heading + ": Quire could not set aside disk space for a spare copy of unsaved text: "
                + "No space left on device. Nothing is lost."), window.shownErrors[0])
            // The copy was removed all the same: nothing is offered back on the next start.
            let unrecovered = try await window.library.unrecoveredDrafts()
            XCTAssertEqual(unrecovered.count, 0)
        }
    }

    /// A recovery copy the store would not take (its article deleted elsewhere while the writer
    /// typed) is said as such when the editor next hears from the recorder: not as a copy that
    /// could not be removed.
    func testARecoveryCopyThatCouldNotBeSavedIsSaidAsSuch() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Tide table", body: ""))
            try await library.createArticle(ArticleContent(title: "Harbour log", body: ""))
        }
        let heading = "Could not save the recovery copy of an article"
        drive(url, expectedErrorHeadings: [heading]) { window in
            await window.recorder.record(articleID: UUID(), title: "Gone", body: "typed into an article deleted elsewhere")
            // The recorder's write runs on a task of its own; the editor hears of its failure when
            // it closes an article.
            var next = "Tide table"
            try await self.until {
                try self.open(next, in: window)
                next = next == "Tide table" ? "Harbour log" : "Tide table"
                return !window.shownErrors.isEmpty
            }
            XCTAssertEqual(window.shownErrors.count, 1)
        }
    }

    func testFoldersAreCreatedRenamedAndArticlesMovedIntoThem() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Loose page", body: "text"))
        }
        drive(url) { window in
            window.createFolder(named: "Drafts")
            await window.waitForPendingWork()
            XCTAssertEqual(window.sidebar.selected, .folder("Drafts"))
            XCTAssertEqual(window.articleList.emptyStateTitle, "No Articles in “Drafts”")

            window.renameFolder("Drafts", to: "Notes")
            await window.waitForPendingWork()
            XCTAssertEqual(window.sidebar.items, [.all, .favorites, .folder("Notes"), .trash])
            XCTAssertEqual(window.sidebar.selected, .folder("Notes"))

            window.sidebar.select(.all)
            XCTAssertTrue(window.articleList.select(window.articleList.article(at: 0).objectID))
            let id = try XCTUnwrap(window.session?.articleID)
            g_action_group_activate_action(window.window.actionMapPointer, "move-to-folder", g_variant_new_string("Notes"))
            await window.waitForPendingWork()
            let folder = try await window.library.article(id).folder
            XCTAssertEqual(folder, "Notes")
            try await self.until { window.sidebar.countText(ofFolder: "Notes") == "1" }
            window.sidebar.select(.folder("Notes"))
            XCTAssertEqual(self.titles(window), ["Loose page"])
        }
    }

    func testChangeOfTheOpenArticleElsewhereAsksTheWriterAndKeepMineSavesIt() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base"))
        }
        drive(url) { window in
            XCTAssertTrue(window.articleList.select(window.articleList.article(at: 0).objectID))
            let session = try XCTUnwrap(window.session)
            gtk_text_buffer_insert_at_cursor(window.editor.buffer.textBufferPointer, "mine ", -1)
            // Another writer of the same library changes the body; the view context merges it.
            try await window.library.editArticle(session.articleID, body: "theirs")
            try await self.until {
                (try? window.library.viewContext.existingObject(with: session.objectID, as: StoredArticle.self))?.body == "theirs"
            }
            XCTAssertFalse(session.save(), "the save waits for the writer")
            let dialog = try XCTUnwrap(Window.toplevels.first { $0.isVisible && $0.objectPointer != window.window.objectPointer })
            XCTAssertTrue(dialog.isA(adw_window_get_type()))
            XCTAssertTrue(dialog.activateAction("conflict.keep-mine"))
            try await self.until { try await window.library.article(session.articleID).body == "mine base" }
        }
    }

    /// With nothing unsaved, a change made elsewhere (another program, a version the sync worker
    /// took, a conflict resolved) shows in the editor, and the next edit is made on top of it
    /// instead of sending the older text over it.
    func testChangeOfTheOpenArticleElsewhereWithNothingUnsavedIsShownAndEditedOnTop() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shared", body: "base\n"))
        }
        drive(url) { window in
            XCTAssertTrue(window.articleList.select(window.articleList.article(at: 0).objectID))
            let session = try XCTUnwrap(window.session)
            XCTAssertFalse(session.hasUnsavedChanges)
            try await window.library.editArticle(session.articleID, body: "base\ntheirs\n")
            try await self.until { window.editor.body == "base\ntheirs\n" }
            var end = GtkTextIter()
            gtk_text_buffer_get_end_iter(window.editor.buffer.textBufferPointer, &end)
            gtk_text_buffer_insert(window.editor.buffer.textBufferPointer, &end, "mine\n", -1)
            try await self.until { try await window.library.article(session.articleID).body == "base\ntheirs\nmine\n" }
        }
    }

    func testScreenshotOfADemoLibraryOfAThousandArticles() throws {
        let url = try makeLibrary { library in try await library.addDemoArticles(count: 1000) }
        let path = try makeTemporaryFolder().appending(path: "library.png").path
        try MainActor.assumeIsolated {
            let status = runQuire(settings: nil, libraryURL: url, screenshotPath: path)
            XCTAssertEqual(status, 0)
            let image = try Texture(contentsOfFile: path)
            XCTAssertGreaterThan(image.width, 300)
            XCTAssertGreaterThan(Set(image.pixels()).count, 64, "sidebar, rows and text are drawn")
        }
    }

    func testWindowHostsSyncStatusConflictBannerPreferencesExportAndImport() throws {
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Shipped", body: "text"))
        }
        drive(url) { window in
            XCTAssertNotEqual(gtk_widget_is_ancestor(window.syncStatus.widget.widgetPointer, window.statusSlot.widgetPointer), 0)
            XCTAssertNotEqual(gtk_widget_is_ancestor(window.conflictBanner.widget.widgetPointer, window.bannerSlot.widgetPointer), 0)
            XCTAssertFalse(window.conflictBanner.isShown, "no conflicts, no banner")
            XCTAssertNil(window.sync.account, "nobody signed in: nothing syncs")

            for (action, title) in [("export", "Export"), ("import", "Import"), ("preferences", "Preferences")] {
                XCTAssertTrue(window.window.activateAction("win.\(action)"))
                var dialog: Window?
                try await self.until {
                    dialog = Window.toplevels.first { $0.title == title && $0.isVisible }
                    return dialog != nil
                }
                XCTAssertEqual(dialog?.transientFor?.objectPointer, window.window.objectPointer, "\(title) opens over the window")
                dialog?.close()
                try await self.until { !Window.toplevels.contains { $0.title == title && $0.isVisible } }
            }
        }
    }

    /// In a narrow window the search bar lives on the list's page: Ctrl+F from the sidebar's page
    /// shows that page, so the keys typed go into a field the writer sees.
    func testCtrlFInANarrowWindowShowsTheListPageAndItsSearchField() throws {
        try requireXdotool()
        let url = try makeLibrary { library in
            try await library.createArticle(ArticleContent(title: "Harbour log", body: "Boats at anchor."))
            try await library.createArticle(ArticleContent(title: "Garden notes", body: "Beans."))
        }
        drive(url) { window in
            window.window.present()
            try await self.resize(window, to: 400)
            try await self.until {
                gtk_window_is_active(window.window.windowPointer) != 0 && window.leaflet.isFolded && window.articleList.count == 2
            }
            window.leaflet.showChild(window.sidebarPane)
            try await self.until { window.sidebarPane.isMapped && !window.articleList.listView.widget.isMapped }
            XCTAssertTrue(window.sidebarPane.focusFirstChild())

            try press(["key", "ctrl+f"])
            try await self.until { window.searchEntry.isMapped }
            try press(["type", "harbour"])
            try await self.until { window.articleList.query.searchText == "harbour" }
            XCTAssertEqual(window.searchEntry.text, "harbour")
            XCTAssertEqual(window.articleList.count, 1)
        }
    }
}
