import CGtk
import CStoreFaults
import Foundation
import GtkKit
import Library
import Transfer
import ObjectGraph
import QuireTestSupport
import XCTest

@testable import QuireUI

/// Opening the writer's library at startup under Xvfb, each case from its real cause: the
/// upgrade of the V1 fixture with its progress window (and closing that window mid-upgrade), a
/// damaged file quarantined and recovered, a newer Quire's library offered read-only, a library on
/// a read-only file system (or a read-only file) with its notice, and a full disk while writing.
final class LibraryStartupTests: QuireTestCase, @unchecked Sendable {
    static let fixture = packageRoot.appending(path: "Tests/LibraryTests/Fixtures/library-v1.quire")

    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    override func tearDown() {
        MainActor.assumeIsolated {
            LibraryStartup.progressWindowCreated = nil
            for window in Window.toplevels { window.destroy() }
        }
        super.tearDown()
    }

    // MARK: Upgrade

    func testAnUpgradeShowsItsProgressAndOpensTheUpgradedLibrary() throws {
        let url = try fixtureCopy()
        try MainActor.assumeIsolated {
            var windows: [UpgradeProgressWindow] = []
            var mapped = false
            LibraryStartup.progressWindowCreated = { window in
                windows.append(window)
                window.window.connect(.map) { mapped = true }
            }
            var options = LibraryOpenOptions()
            options.upgradeBatchSize = 1
            let run = StartupRun(url, options: options)
            spinMainLoop { run.finished }
            XCTAssertTrue(mapped, "the window was on screen during the upgrade")

            let window = try XCTUnwrap(windows.first)
            XCTAssertEqual(windows.count, 1)
            XCTAssertFalse(window.window.isOpen, "the window closes once the library is open")
            let steps = window.shown
            // The reading times (V1→V2) are computed in the pass that gives the articles their
            // language (V3→V4), one write of each row for both (ObjectGraph's TransformSchedule).
            let upgrading = steps.filter { if case .migrating(_, _, let label) = $0.phase { return label == "article languages" } else { return false } }
            XCTAssertGreaterThan(upgrading.count, 10, "a step per batch of one article: \(steps)")
            XCTAssertTrue(upgrading.contains { $0.fractionCompleted > 0.1 && $0.fractionCompleted < 0.9 })
            XCTAssertTrue(steps.contains { $0.phase == .preparing } && steps.contains { $0.phase == .validating })
            XCTAssertEqual(steps.map(\.fractionCompleted), steps.map(\.fractionCompleted).sorted(), "the bar only moves forward")
            XCTAssertEqual(window.stepText, steps.last.map { $0.phase.description + "…" })
            XCTAssertEqual(window.fraction, steps.last?.fractionCompleted ?? -1, accuracy: 0.001)

            let opened = try XCTUnwrap(run.opened)
            XCTAssertEqual(opened.library.upgrade?.stagesRun, LibrarySchema.migrationPlan().stages.count, "every stage from V1")
            XCTAssertEqual(opened.library.access, .readWrite)
            XCTAssertNil(opened.recovery)
            XCTAssertEqual(try wait { try await Self.articles(of: opened.library) }, try wait { try await Self.fixtureArticles() })
        }
    }

    func testClosingTheUpgradeWindowLosesNothing() throws {
        let url = try fixtureCopy()
        try MainActor.assumeIsolated {
            var windows: [UpgradeProgressWindow] = []
            LibraryStartup.progressWindowCreated = { windows.append($0) }
            var options = LibraryOpenOptions()
            options.upgradeBatchSize = 1
            let run = StartupRun(url, options: options)
            spinMainLoop { windows.first?.shown.contains { if case .migrating = $0.phase { true } else { false } } == true }
            let window = try XCTUnwrap(windows.first)
            window.window.close()
            spinMainLoop { run.finished }
            // The writer closed the window: the app is told to quit (unless the upgrade had
            // already finished when the close arrived).
            XCTAssertTrue(run.opened == nil || window.shown.contains { $0.phase == .finished })

            // The next start (waiting while the abandoned upgrade finishes) has every article.
            let library = try wait { try await Library.open(at: url) }
            XCTAssertEqual(library.container.persistentStore.metadata.schema.checksum, LibrarySchema.current.checksum)
            XCTAssertEqual(try wait { try await Self.articles(of: library) }, try wait { try await Self.fixtureArticles() })
        }
    }

    func testScreenshotOfTheUpgradeProgress() throws {
        let folder = try screenshotFolder()
        let url = try fixtureCopy()
        try MainActor.assumeIsolated {
            // A step the real upgrade of the fixture reported half-way.
            let reports = ProgressLog()
            _ = try wait { try await Library.open(at: url, options: Self.smallBatches) { reports.append($0) } }
            let halfWay = try XCTUnwrap(reports.all.first { $0.fractionCompleted > 0.4 })

            let window = try UpgradeProgressWindow(over: nil)
            window.show(halfWay)
            defer { window.finish() }
            XCTAssertTrue(window.window.isVisible)
            XCTAssertTrue(window.stepText.hasPrefix("Upgrading (step 3 of 5: article languages)"), window.stepText)
            try checkScreenshot(of: window.window, to: folder.appending(path: "upgrade-progress.png").path)
        }
    }

    // MARK: Damaged library

    func testADamagedLibraryIsQuarantinedAndItsArticlesRecovered() throws {
        let folder = try screenshotFolder()
        let url = try fixtureCopy()
        // The header's first bytes gone: SQLite no longer recognises the file.
        let handle = try FileHandle(forUpdating: url)
        try handle.write(contentsOf: Data(repeating: 0x55, count: 16))
        try handle.close()
        let damaged = try Data(contentsOf: url)

        try MainActor.assumeIsolated {
            let run = StartupRun(url)
            let problem = try waitForDialog(heading: "The Library Is Damaged")
            XCTAssertTrue(body(of: problem).contains("quarantine folder (nothing is deleted)"), body(of: problem))
            XCTAssertTrue(hasResponse(problem, "recover") && hasResponse(problem, "quit"))
            try checkScreenshot(of: problem, to: folder.appending(path: "library-damaged.png").path)
            respond(problem, "recover")

            let reportDialog = try waitForDialog(heading: "Your Library Was Recovered")
            let expected = try wait { try await Self.fixtureArticles() }
            let text = body(of: reportDialog)
            XCTAssertTrue(text.hasPrefix("Recovered \(expected.count) articles, everything Quire could find."), text)
            XCTAssertTrue(text.contains(LibraryRecovery.quarantineFolder(for: url).path), text)
            try checkScreenshot(of: reportDialog, to: folder.appending(path: "library-recovered.png").path)
            respond(reportDialog, "continue")
            spinMainLoop { run.finished }

            let opened = try XCTUnwrap(run.opened)
            let report = try XCTUnwrap(opened.recovery)
            XCTAssertEqual(try Data(contentsOf: report.quarantine.appending(path: "library.quire")), damaged, "kept as it was found")
            XCTAssertEqual(opened.library.access, .readWrite)
            XCTAssertEqual(try wait { try await Self.articles(of: opened.library) }, expected)
        }
    }

    // MARK: Read-only

    func testALibraryFromANewerQuireIsOfferedReadOnly() throws {
        let url = try fixtureCopy()
        try MainActor.assumeIsolated {
            try makeNewer(url)
            let before = try Data(contentsOf: url)

            let run = StartupRun(url)
            let dialog = try waitForDialog(heading: "Library From a Newer Quire")
            XCTAssertTrue(body(of: dialog).contains("open read-only"), body(of: dialog))
            XCTAssertTrue(hasResponse(dialog, "quit") && hasResponse(dialog, "export") && hasResponse(dialog, "open-read-only"))
            respond(dialog, "open-read-only")
            spinMainLoop { run.finished }

            let opened = try XCTUnwrap(run.opened)
            XCTAssertEqual(opened.library.access, .readOnly(.newerVersion))
            XCTAssertFalse(opened.exportRequested)
            XCTAssertEqual(try wait { try await Self.articles(of: opened.library) }, try wait { try await Self.fixtureArticles() })
            XCTAssertEqual(try Data(contentsOf: url), before, "no downgrade writes")
        }
    }

    /// Turns the library at `url` into one a newer Quire wrote: upgraded to the current schema,
    /// then to a version after it that added an attribute to articles.
    @MainActor
    private func makeNewer(_ url: URL) throws {
        _ = try wait { try await Library.open(at: url) }
        var newer = LibrarySchema.current
        newer.version += 1
        newer.entities[0].attributes.append(AttributeDescription("pinnedNote", .string, optional: true))
        _ = try StoreMigrator(
            plan: try MigrationPlan(schemas: [LibrarySchema.current, newer], stages: [.lightweight(from: LibrarySchema.current, to: newer)]),
            store: url
        ).runNow()
    }

    func testTheWindowOverAReadOnlyLibraryOffersReadingAndExportOnly() throws {
        let url = try fixtureCopy()
        try MainActor.assumeIsolated {
            try makeNewer(url)
            let before = try Data(contentsOf: url)
            // The startup dialog comes before the window: answer it as the writer would.
            var answer: Timeout?
            @MainActor func answerWhenAsked() {
                if let dialog = messageDialog(heading: "Library From a Newer Quire"), dialog.isMapped {
                    respond(dialog, "open-read-only")
                } else {
                    answer = Timeout(milliseconds: 50) { answerWhenAsked() }
                }
            }
            answerWhenAsked()
            var checked = false
            let status = runQuire(settings: nil, libraryURL: url) { quire, window in
                defer { quire.application.activateAction(named: "quit") }
                XCTAssertNotNil(window.readOnlyReason)
                for action in ["new-article", "import", "new-folder", "empty-trash", "trash-article", "favorite"] {
                    XCTAssertEqual(window.window.action(named: action)?.isEnabled, false, "\(action) is off")
                }
                XCTAssertEqual(window.window.action(named: "export")?.isEnabled, true, "export stays on")
                guard window.articleList.count > 0 else { return XCTFail("the articles are listed") }
                window.articleList.select(window.articleList.article(at: 0).objectID)
                XCTAssertTrue(window.editor.isReadOnly, "the editor refuses typing")
                XCTAssertEqual(window.editor.readOnlyReason, window.readOnlyReason)
                checked = true
            }
            answer?.cancel()
            XCTAssertEqual(status, 0)
            XCTAssertTrue(checked)
            XCTAssertEqual(try Data(contentsOf: url), before, "nothing was written")
        }
    }

    func testAReadOnlyLibraryOpensWithANoticeAndExportStaysAvailable() throws {
        // Root may write any file: only a read-only file system stops it.
        let mount = geteuid() == 0 ? try ScratchMount(megabytes: 32) : nil
        defer { mount?.unmount() }
        let reason: LibraryProblem.ReadOnlyReason = mount == nil ? .permission : .readOnlyFileSystem
        let url = try mount.map { $0.url.appending(path: "library.quire") } ?? fixtureCopy()
        if mount != nil { try FileManager.default.copyItem(at: Self.fixture, to: url) }
        try MainActor.assumeIsolated {
            _ = try wait { try await Library.open(at: url) }
            if let mount {
                try mount.makeReadOnly()
            } else {
                try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
                try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: url.deletingLastPathComponent().path)
            }
            defer {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.deletingLastPathComponent().path)
            }

            let run = StartupRun(url)
            let dialog = try waitForDialog(heading: "The Library Is Read-Only")
            XCTAssertTrue(body(of: dialog).contains("you can read and export your articles"), body(of: dialog))
            XCTAssertTrue(hasResponse(dialog, "export") && hasResponse(dialog, "continue-read-only"))
            respond(dialog, "export")
            spinMainLoop { run.finished }

            let opened = try XCTUnwrap(run.opened)
            XCTAssertEqual(opened.library.access, .readOnly(reason))
            XCTAssertTrue(opened.exportRequested)
            // Export works from the read-only library.
            let export = try makeTemporaryFolder().appending(path: "export")
            let exported = try wait {
                try await ExportJob(format: .markdown, destination: export).run(from: try await opened.library.exportSource(for: .library))
            }
            XCTAssertGreaterThan(exported.articleCount, 10)
        }
    }

    // MARK: Disk full

    func testAFullDiskIsAnnouncedAndTheDialogGoesWhenSpaceReturns() throws {
        let folder = try makeFolderWithStoreFaults()
        try MainActor.assumeIsolated {
            let run = StartupRun(folder.appending(path: "library.quire"))
            spinMainLoop { run.finished }
            let opened = try XCTUnwrap(run.opened, "a new library is created")
            let library = opened.library
            let article = try wait { try await library.createArticle(ArticleContent(title: "Draft", body: "kept")) }
            let parent = Window()
            parent.present()
            defer { parent.destroy() }
            opened.watchCondition(over: parent)

            for answer in ["retry", "keep-writing"] {
                quire_faults_fail_writes_after(0)
                XCTAssertThrowsError(try wait { try await library.editArticle(article.id, body: "an edit the disk cannot take") })
                let dialog = try waitForDialog(heading: "The Disk Is Full")
                XCTAssertTrue(body(of: dialog).contains("Nothing you typed is lost"), body(of: dialog))
                XCTAssertTrue(hasResponse(dialog, "retry") && hasResponse(dialog, "dismiss"))
                quire_faults_fail_writes_after(-1)
                if answer == "retry" {
                    // Space is back: "Try Again" finds it, and the dialog stays closed.
                    respond(dialog, "retry")
                } else {
                    // The library's own look at the free space finds it: the dialog closes by itself.
                    XCTAssertEqual(library.checkSpaceAgain(), .writable)
                }
                spinMainLoop { messageDialog(heading: "The Disk Is Full") == nil && library.condition == .writable }
                for _ in 0..<20 { g_main_context_iteration(nil, 0) }
                XCTAssertNil(messageDialog(heading: "The Disk Is Full"), "the dialog stays closed once there is space")
                _ = try wait { try await library.editArticle(article.id, body: "saved again after \(answer)") }
            }
            XCTAssertEqual(try wait { try await library.article(article.id).body }, "saved again after keep-writing")
        }
    }

    // MARK: Support

    private static let smallBatches: LibraryOpenOptions = {
        var options = LibraryOpenOptions()
        options.upgradeBatchSize = 2
        return options
    }()

    private func fixtureCopy() throws -> URL {
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        try FileManager.default.copyItem(at: Self.fixture, to: url)
        return url
    }

    /// Every article of a library, trashed ones too, as (ID, title, body), sorted by ID.
    private static func articles(of library: Library) async throws -> [String] {
        let live = try await library.articles(matching: ArticleQuery()).map(\.id)
        let trashed = try await library.articles(matching: ArticleQuery(filter: .trash)).map(\.id)
        var texts: [String] = []
        for id in live + trashed {
            let article = try await library.article(id)
            texts.append("\(id) \(article.title)\n\(article.body)")
        }
        return texts.sorted()
    }

    /// The fixture's articles, read from an upgraded copy of it.
    private static func fixtureArticles() async throws -> [String] {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        try FileManager.default.copyItem(at: fixture, to: url)
        let texts = try await articles(of: Library.open(at: url))
        withExtendedLifetime(folder) {}
        return texts
    }

    /// Runs `body` on the main actor and spins the main loop until it finishes.
    @MainActor
    private func wait<T>(_ body: @escaping @MainActor () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        Task { @MainActor in
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        }
        spinMainLoop { box.result != nil }
        return try XCTUnwrap(box.result).get()
    }

    @MainActor
    private func messageDialog(heading: String) -> Window? {
        Window.toplevels.first { window in
            window.isA(adw_message_dialog_get_type())
                && adw_message_dialog_get_heading(window.pointer(as: AdwMessageDialog.self)).map { String(cString: $0) } == heading
        }
    }

    @MainActor
    private func waitForDialog(heading: String, file: StaticString = #filePath, line: UInt = #line) throws -> Window {
        spinMainLoop(until: { messageDialog(heading: heading) != nil }, file: file, line: line)
        let dialog = try XCTUnwrap(messageDialog(heading: heading), "no dialog “\(heading)”", file: file, line: line)
        spinMainLoop(until: { dialog.isMapped }, file: file, line: line)
        return dialog
    }

    @MainActor
    private func body(of dialog: Window) -> String {
        adw_message_dialog_get_body(dialog.pointer(as: AdwMessageDialog.self)).map { String(cString: $0) } ?? ""
    }

    @MainActor
    private func hasResponse(_ dialog: Window, _ response: String) -> Bool {
        adw_message_dialog_has_response(dialog.pointer(as: AdwMessageDialog.self), response) != 0
    }

    /// Clicks the button of `response`, as the writer would.
    @MainActor
    private func respond(_ dialog: Window, _ response: String, file: StaticString = #filePath, line: UInt = #line) {
        let label = adw_message_dialog_get_response_label(dialog.pointer(as: AdwMessageDialog.self), response).map { String(cString: $0) }
        let button = dialog.descendants(ofType: gtk_button_get_type()).first {
            gtk_button_get_label($0.pointer()).map { String(cString: $0) } == label
        }
        guard let button else { return XCTFail("no button for \(response)", file: file, line: line) }
        XCTAssertTrue(gtk_widget_activate(button.widgetPointer) != 0, response, file: file, line: line)
    }

    @MainActor
    private func checkScreenshot(of window: Window, to path: String) throws {
        var drawn = false
        gtk_widget_queue_draw(window.widgetPointer)
        window.afterNextFrame { drawn = true }
        spinMainLoop { drawn }
        try render(window, to: path)
        let image = try Texture(contentsOfFile: path)
        XCTAssertEqual(image.width, window.width)
        XCTAssertGreaterThan(Set(image.pixels()).count, 32, "text and widgets are drawn")
    }
}

/// ``LibraryStartup/open(at:over:options:)`` running in a task, and what it returned.
@MainActor
private final class StartupRun {
    private(set) var finished = false
    private(set) var opened: OpenedLibrary?

    init(_ url: URL, options: LibraryOpenOptions = LibraryOpenOptions(createIfMissing: true)) {
        Task { @MainActor in
            opened = await LibraryStartup.open(at: url, over: nil, options: options)
            finished = true
        }
    }
}

@MainActor
private final class ResultBox<T> {
    var result: Result<T, Error>?
}

/// Progress reports collected from the upgrade's thread.
private final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [MigrationProgress] = []

    func append(_ report: MigrationProgress) { lock.withLock { reports.append(report) } }
    var all: [MigrationProgress] { lock.withLock { reports } }
}
