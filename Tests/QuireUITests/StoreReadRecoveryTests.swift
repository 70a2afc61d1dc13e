import CGtk
import Foundation
import Library
import ObjectGraph
import QuireTestSupport
import XCTest

@testable import QuireUI

/// The article list and the sidebar's counts after reading the store failed: each says so once,
/// and reads again until it can, so that it follows the store again (the list kept showing an
/// article another program had moved out of the folder shown, and the counts kept it there).
final class StoreReadRecoveryTests: MainWindowTestCase, @unchecked Sendable {
    func testTheListAndTheCountsReadAgainOnceTheStoreCanBeReadAfterAChangeTheyCouldNotApply() throws {
        let url = try makeLibrary { library in
            try await library.createFolder(named: "Essays")
            try await library.createFolder(named: "Old")
            try await library.createArticle(ArticleContent(title: "Moving", body: "a", folder: "Essays"))
            try await library.createArticle(ArticleContent(title: "Staying", body: "b", folder: "Essays"))
        }
        // The sidebar reads the moved article too, and says so.
        drive(url, expectedErrorHeadings: ["Could not read the library", "Could not read the folders"]) { window in
            try await self.until { window.sidebar.folders.count == 2 }
            window.sidebar.select(.folder("Essays"))
            try await self.until { Set(self.titles(window)) == ["Moving", "Staying"] }

            // Another program moves "Moving" out of the folder; before the view context merges
            // that save (on the main queue, after this turn), the articles' table goes away, so
            // the list cannot read the moved row.
            let container = window.library.container
            let background = container.newBackgroundContext()
            try background.performAndWait {
                let article = try XCTUnwrap(try background.fetch(FetchRequest<StoredArticle>(predicate: \.title == "Moving")).first)
                article.folder = try XCTUnwrap(try background.fetch(FetchRequest<Folder>(predicate: \.name == "Old")).first)
                try background.save()
            }
            let store = try XCTUnwrap(container.persistentStore.storeDescription.url)
            try renameStoreTable("Article", to: "ArticleGone", in: store)
            let listFailures = { window.shownErrors.filter { $0.hasPrefix("Could not read the library: ") }.count }
            try await self.until { listFailures() == 1 }
            // (Their objects cannot be read either: the moved one's title reads empty meanwhile.)
            XCTAssertEqual(window.articleList.count, 2, "the rows as they were")

            try renameStoreTable("ArticleGone", to: "Article", in: store)
            try await self.until { self.titles(window) == ["Staying"] }
            XCTAssertEqual(listFailures(), 1, "the failure is reported once, not again for each attempt")
            // The sidebar's counts could not be read either; they follow the store again too.
            try await self.until { window.sidebar.countText(ofFolder: "Old") == "1" && window.sidebar.countText(ofFolder: "Essays") == "1" }
            XCTAssertEqual(window.shownErrors.filter { $0.hasPrefix("Could not read the folders: ") }.count, 1)
        }
    }

    /// A retry whose first screen reads but whose whole list fails again is not a success: the
    /// failure is not reported again at each retry (it was, every second, while the whole list
    /// could not be read), and the list reads in full once it can.
    func testASearchWhoseWholeListCannotBeReadIsReportedOnceWhileItsFirstScreenReads() throws {
        let url = try makeLibrary { library in
            for number in 1...60 { try await library.createArticle(ArticleContent(title: "Note \(number)", body: "x")) }
        }
        // Wide enough to show the list, whose whole list is read once its rows are drawn.
        drive(url, windowSize: (1400, 900), expectedErrorHeadings: ["Could not read the library"]) { window in
            let list = window.articleList
            try await self.until { list.count == 60 }
            let store = try XCTUnwrap(window.library.container.persistentStore.storeDescription.url)
            // Each whole list's read finds the articles' table gone; its first screen, read
            // before, finds it there.
            var wholeListsStarted = 0
            list.wholeListStarted = {
                wholeListsStarted += 1
                do { try renameStoreTable("Article", to: "ArticleGone", in: store) } catch { XCTFail("\(error)") }
            }
            gtk_editable_set_text(window.searchEntry.opaquePointer, "Note")
            for attempt in 1...3 {
                try await self.until { wholeListsStarted == attempt && !list.isAwaitingWholeList }
                try renameStoreTable("ArticleGone", to: "Article", in: store)
            }
            XCTAssertEqual(window.shownErrors.count, 1, "reported once, not at each retry")
            list.wholeListStarted = nil
            try await self.until { list.count == 60 && !list.isAwaitingWholeList }
            XCTAssertEqual(window.shownErrors.count, 1)
        }
    }
}
