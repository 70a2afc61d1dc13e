import CGtk
import Foundation
import GtkKit
import Library
import ObjectGraph
import QuireTestSupport
import SyncTestSupport
import XCTest

@testable import QuireUI
@testable import SyncClient

/// The sync components under Xvfb: the header-bar status follows the worker's status feed, the
/// conflict banner counts the open conflicts and resolves each through the conflict dialog with
/// every action committed to the library, the preferences sign in to a real `quire-server` on
/// loopback (token in a 0600 file) and sign out keeping the library, refuse unencrypted HTTP to
/// another computer unless allowed and trust a certificate authority file; screenshots.
final class SyncUITests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    /// A library in a temporary folder, with account settings that keep the token in a file
    /// (the test bus may offer a keyring that would prompt).
    @MainActor
    private func makeSession() throws -> SyncSession {
        let library = try Library(url: makeTemporaryFolder().appending(path: "library.quire"))
        return SyncSession(library: library, settings: AccountSettings(libraryURL: library.url, keyring: nil))
    }

    /// Runs `body` in a main-actor task and the main loop until it ends; answers its result.
    @MainActor
    private func wait<T>(file: StaticString = #filePath, line: UInt = #line, _ body: @escaping @MainActor () async throws -> T) throws -> T {
        var result: Result<T, Error>?
        Task { @MainActor in
            do { result = .success(try await body()) } catch { result = .failure(error) }
        }
        spinMainLoop(until: { result != nil }, file: file, line: line)
        return try XCTUnwrap(result, file: file, line: line).get()
    }

    // MARK: Status

    func testStatusButtonShowsEachStateOfTheFeed() throws {
        try MainActor.assumeIsolated {
            let session = try makeSession()
            let button = try SyncStatusButton(session: session)
            XCTAssertEqual(labelText(button.label), "Sync Off")
            XCTAssertFalse(button.actions.activateAction(named: "sync-now"), "nothing to sync while signed out")

            let feed = SyncStatusFeed()
            session.follow(feed)
            let synced = Date(timeIntervalSinceNow: -60)
            let states: [(SyncStatus, word: String, heading: String, detail: String?)] = [
                (SyncStatus(activity: .idle, lastSynced: synced), "Synced", "Everything is synced", nil),
                (SyncStatus(activity: .syncing, waitingChanges: 2, lastSynced: synced), "Syncing…", "Syncing", "2 changes wait to be sent."),
                (SyncStatus(activity: .offline(since: Date()), waitingChanges: 3, lastSynced: synced,
                            lastProblem: SyncProblem(kind: .network, summary: "The server cannot be reached", detail: "connection refused")),
                 "Offline", "The server cannot be reached", "3 changes wait to be sent."),
                (SyncStatus(activity: .idle, waitingChanges: 1, lastSynced: synced), "1 change waiting", "1 change waiting", nil),
                (SyncStatus(activity: .idle, waitingChanges: 4, lastSynced: synced), "4 changes waiting", "4 changes waiting", nil),
                (SyncStatus(activity: .idle, failures: [SyncFailure(
                    id: "op-1", articleID: UUID(), articleTitle: "Field notes",
                    rejection: RequestRejection(reason: .tooLarge, status: 413, detail: "the body is over the limit"), saved: Date())],
                            lastSynced: synced),
                 "Sync Error", "1 change could not be saved on the server", "Field notes"),
                (SyncStatus(activity: .signInRequired(detail: "token revoked")), "Sync Error",
                 "The server refused the account's token; sign in again (token revoked)", nil),
            ]
            for (status, word, heading, detail) in states {
                feed.update { $0 = status }
                spinMainLoop { session.status == status }
                XCTAssertEqual(labelText(button.label), word)
                XCTAssertEqual(labelText(button.headlineLabel), heading)
                if let detail { XCTAssertTrue(labelText(button.detailLabel).contains(detail), labelText(button.detailLabel)) }
                // What went wrong technically is behind the popover's Details expander, not in its sentences.
                let details = labelText(button.detailsLabel)
                XCTAssertEqual(button.detailsExpander.isVisible, !details.isEmpty)
                if status.lastProblem?.kind == .network { XCTAssertEqual(details, "connection refused") }
                if let failure = status.failures.first {
                    XCTAssertTrue(details.contains("tooLarge (413): the body is over the limit"), details)
                    XCTAssertTrue(labelText(button.detailLabel).contains("larger than the server accepts"), labelText(button.detailLabel))
                    XCTAssertFalse(labelText(button.detailLabel).contains("tooLarge"), "no code words in the sentences: \(failure.id)")
                }
                XCTAssertEqual(gtk_widget_has_css_class(button.widget.widgetPointer, "error") != 0, word == "Sync Error", word)
                let lastSynced = labelText(button.lastSyncedLabel)
                if status.lastSynced == nil {
                    XCTAssertEqual(lastSynced, "Not synced yet")
                } else {
                    XCTAssertTrue(lastSynced.hasPrefix("Last synced today at") || lastSynced.hasPrefix("Last synced yesterday at"), lastSynced)
                }
            }
            // A server from before attachments: the popover says where the images stay.
            var older = SyncStatus(activity: .idle, lastSynced: synced)
            older.serverKeepsNoAttachments = true
            feed.update { $0 = older }
            spinMainLoop { session.status == older }
            XCTAssertEqual(labelText(button.label), "Synced")
            XCTAssertTrue(labelText(button.detailLabel).contains("keeps no images or files"), labelText(button.detailLabel))
            XCTAssertTrue(button.actions.activateAction(named: "sync-now"), "Sync now is there while a worker runs")
        }
    }

    // MARK: Conflicts

    /// An article whose two sides changed the same line: its title names the action the test
    /// takes in its dialog.
    private static func conflicted(_ title: String) -> (base: ArticleContent, mine: ArticleContent, theirs: ArticleContent) {
        (ArticleContent(title: title, body: "First line.\nThe shared line.\nLast line.\n"),
         ArticleContent(title: title, body: "First line.\nThe shared line, as I wrote it.\nLast line.\n"),
         ArticleContent(title: title, body: "First line.\nThe shared line, as the server has it.\nLast line.\n"))
    }

    func testResolveOpensTheDialogForEachConflictAndCommitsEveryAction() throws {
        try MainActor.assumeIsolated {
            let session = try makeSession()
            let library = session.library
            let actions = ["keep-mine", "keep-theirs", "keep-both", "save-merged", "decide-later"]
            var articles: [String: UUID] = [:]
            for action in actions {
                let sides = Self.conflicted(action)
                articles[action] = try wait {
                    let article = try await library.createArticle(sides.mine)
                    try await library.recordConflict(
                        articleID: article.id, base: sides.base, local: sides.mine, remote: sides.theirs, baseRevision: 1, remoteRevision: 2)
                    return article.id
                }
            }
            let deleted = try wait {
                let article = try await library.createArticle(ArticleContent(title: "restore", body: "Kept here.\n"))
                try await library.recordConflict(
                    articleID: article.id, base: ArticleContent(title: "restore", body: ""), local: ArticleContent(title: "restore", body: "Kept here.\n"),
                    remote: nil, baseRevision: 1, remoteRevision: nil)
                return article.id
            }

            // Deleted on this device, changed on the server: Delete Anyway or Keep Their Version.
            var deletedHere: [String: UUID] = [:]
            for action in ["delete-anyway", "keep-their-version"] {
                let sides = Self.conflicted(action)
                deletedHere[action] = try wait {
                    let article = try await library.createArticle(sides.base)
                    try await library.moveToTrash([article.id])
                    try await library.recordConflict(
                        articleID: article.id, base: sides.base, local: nil, remote: sides.theirs, baseRevision: 1, remoteRevision: 2)
                    return article.id
                }
            }

            let window = Window()
            window.defaultSize = (900, 600)
            let banner = try ConflictBanner(session: session)
            banner.parent = window
            gtk_window_set_child(window.windowPointer, banner.widget.widgetPointer)
            window.present()
            defer { window.destroy() }
            XCTAssertFalse(banner.isShown)
            try wait { await banner.refresh() }
            XCTAssertTrue(banner.isShown)
            XCTAssertEqual(banner.count, 8)
            XCTAssertEqual(banner.text, "8 articles have conflicting changes")

            var merged: ArticleContent?
            XCTAssertTrue(banner.actions.activateAction(named: "resolve"))
            var handled: [String] = []
            while handled.count < 8 {
                spinMainLoop { banner.dialog.map { $0.decision == nil && $0.window.isOpen } ?? false }
                let dialog = try XCTUnwrap(banner.dialog)
                XCTAssertTrue(gtk_window_get_transient_for(dialog.window.windowPointer) == window.windowPointer)
                if let view = dialog.editView {
                    let action = view.mergedContent.title
                    XCTAssertTrue(actions.contains(action), action)
                    if action == "save-merged" {
                        view.mergedBuffer.load("First line.\nThe shared line, merged by hand.\nLast line.\n")
                        merged = view.mergedContent
                    }
                    XCTAssertTrue(view.actions.activateAction(named: action))
                    handled.append(action)
                } else {
                    let message = dialog.window.pointer(as: AdwMessageDialog.self)
                    let heading = String(cString: adw_message_dialog_get_heading(message))
                    let body = String(cString: adw_message_dialog_get_body(message))
                    if let action = deletedHere.keys.first(where: { body.contains("“\($0)”") }) {
                        XCTAssertEqual(heading, "Article Changed Elsewhere")
                        XCTAssertTrue(body.contains("was deleted on this device"), body)
                        XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(message, "delete")), "_Delete Anyway")
                        XCTAssertEqual(String(cString: adw_message_dialog_get_response_label(message, "restore")), "_Keep Their Version")
                        adw_message_dialog_response(message, action == "delete-anyway" ? "delete" : "restore")
                        handled.append(action)
                    } else {
                        XCTAssertEqual(heading, "Article Deleted Elsewhere")
                        adw_message_dialog_response(message, "restore")
                        handled.append("restore")
                    }
                }
                spinMainLoop { banner.dialog !== dialog }
            }
            try wait { await banner.resolution() }
            XCTAssertEqual(Set(handled), Set(actions + ["restore", "delete-anyway", "keep-their-version"]), "one dialog per conflict")
            XCTAssertNil(banner.failure)

            // Decide Later leaves its conflict open; the others are closed with their resolution.
            let conflicts = try wait { try await library.openConflicts() }
            XCTAssertEqual(conflicts.map(\.articleID), [articles["decide-later"]])
            XCTAssertEqual(banner.count, 1)
            XCTAssertEqual(banner.text, "1 article has conflicting changes")
            XCTAssertTrue(banner.isShown)

            let outcome = try wait {
                var contents: [String: ArticleSnapshot] = [:]
                for (action, id) in articles { contents[action] = try await library.article(id) }
                contents["restore"] = try await library.article(deleted)
                for (action, id) in deletedHere { contents[action] = try await library.article(id) }
                let copies = try await library.articles(matching: ArticleQuery(searchText: "conflicted copy"))
                return (contents, copies)
            }
            let sides = Self.conflicted("")
            XCTAssertEqual(outcome.0["keep-mine"]?.body, sides.mine.body)
            XCTAssertEqual(outcome.0["keep-theirs"]?.body, sides.theirs.body)
            XCTAssertEqual(outcome.0["keep-both"]?.body, sides.theirs.body)
            XCTAssertEqual(outcome.1.map(\.title), ["keep-both (conflicted copy)"])
            XCTAssertEqual(outcome.0["save-merged"]?.body, merged?.body)
            XCTAssertEqual(merged?.body, "First line.\nThe shared line, merged by hand.\nLast line.\n")
            XCTAssertEqual(outcome.0["decide-later"]?.body, sides.mine.body)
            XCTAssertNil(outcome.0["restore"]?.trashed)
            XCTAssertNotNil(outcome.0["delete-anyway"]?.trashed, "Delete Anyway keeps the article in the trash")
            XCTAssertNil(outcome.0["keep-their-version"]?.trashed)
            XCTAssertEqual(outcome.0["keep-their-version"]?.body, sides.theirs.body)
            XCTAssertEqual(outcome.0["keep-their-version"]?.syncState, .synced)

            // Keep Mine, Save Merged, Keep Both's copy and Restore Mine wait to be sent, each
            // based on the server revision the conflict held.
            let waiting = try wait {
                try await library.container.performBackgroundTask { context in
                    try context.fetch(FetchRequest<SyncOperation>(predicate: \.state == SyncOperationState.pending))
                        .map { ($0.articleID, $0.baseRevision, $0.change) }
                }
            }
            let bases = Dictionary(waiting.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 })
            XCTAssertEqual(bases[articles["keep-mine"]!], 2)
            XCTAssertEqual(bases[articles["save-merged"]!], 2)
            XCTAssertFalse(bases.keys.contains(articles["keep-theirs"]!), "Keep Theirs sends nothing")
            XCTAssertEqual(bases[deletedHere["delete-anyway"]!], 2, "the deletion goes over the server's revision")
            XCTAssertEqual(waiting.first { $0.0 == deletedHere["delete-anyway"]! }?.2, .delete)
            XCTAssertFalse(bases.keys.contains(deletedHere["keep-their-version"]!), "Keep Their Version sends nothing")
        }
    }

    // MARK: Preferences

    func testPreferencesSignInToAServerAndSignOutKeepingTheLibrary() throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount("writer")

        try MainActor.assumeIsolated {
            let session = try makeSession()
            let library = session.library
            _ = try wait { try await library.createArticle(ArticleContent(title: "Draft", body: "Written offline.\n")) }
            let status = try SyncStatusButton(session: session)
            let preferences = try SyncPreferencesWindow(session: session, over: nil)
            preferences.window.present()
            defer { preferences.window.destroy() }
            let fileURL = session.settings.fileURL
            XCTAssertEqual(subtitle(preferences.storageRow), "The file \(fileURL.path) (readable only by you)")
            XCTAssertEqual(subtitle(preferences.accountRow), "Not signed in")

            preferences.serverText = "not a url"
            preferences.tokenText = token
            preferences.actions.activateAction(named: "sign-in")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.contains("is not an http or https URL"), preferences.message)
            XCTAssertNil(session.worker)

            preferences.serverText = "http://127.0.0.1:\(server.port)"
            preferences.actions.activateAction(named: "sign-in")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.hasPrefix("Signed in. The token is kept in the file"), preferences.message)
            XCTAssertEqual(subtitle(preferences.accountRow), "Signed in to http://127.0.0.1:\(server.port)")
            XCTAssertEqual(preferences.tokenText, "", "the token is not left on screen")
            var info = stat()
            XCTAssertEqual(stat(fileURL.path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)
            XCTAssertNotNil(session.worker)

            // The worker sends the draft and the header bar says so.
            spinMainLoop { labelText(status.label) == "Synced" }
            XCTAssertNotNil(session.status.lastSynced)

            preferences.actions.activateAction(named: "sign-out")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.hasPrefix("Signed out."), preferences.message)
            XCTAssertNil(session.worker)
            XCTAssertNil(try session.settings.load())
            XCTAssertFalse(FileManager.default.fileExists(atPath: fileURL.path))
            XCTAssertEqual(labelText(status.label), "Sync Off")
            XCTAssertEqual(try wait { try await library.count(matching: ArticleQuery()) }, 1, "signing out keeps the library")
            XCTAssertFalse(preferences.actions.activateAction(named: "sign-out"))
        }
    }

    func testPreferencesRefuseUnencryptedHTTPToAnotherComputerAndTrustACertificateAuthorityFile() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let folder = certificates.folder
        let authority = certificates.authority.path
        let server = try TestServer { $0.tlsFiles = certificates.files() }
        defer { server.stop() }
        let token = try server.addAccount("writer")

        try MainActor.assumeIsolated {
            let session = try makeSession()
            let status = try SyncStatusButton(session: session)
            let preferences = try SyncPreferencesWindow(session: session, over: nil)
            preferences.window.present()
            defer { preferences.window.destroy() }
            XCTAssertFalse(preferences.allowsInsecureHTTP)
            XCTAssertEqual(preferences.authorityText, "")

            // http:// to another computer (192.0.2.0/24 is unroutable) with the switch off: refused
            // with why, nothing saved, no worker.
            preferences.serverText = "http://192.0.2.7:7740"
            preferences.tokenText = token
            preferences.actions.activateAction(named: "sign-in")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.contains("unencrypted") && preferences.message.contains("Allow Unencrypted HTTP"),
                          preferences.message)
            XCTAssertNil(session.worker)
            XCTAssertNil(try session.settings.load())

            // A certificate authority file that is not there is named.
            preferences.serverText = "https://127.0.0.1:\(server.port)"
            preferences.authorityText = folder.appending(path: "missing.pem").path
            preferences.actions.activateAction(named: "sign-in")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.contains("“missing.pem” cannot be read"), preferences.message)
            XCTAssertNil(session.worker)

            // The self-signed server through the authority file: signed in and synced over TLS; the
            // switch and the file are kept with the account and shown again.
            preferences.authorityText = authority
            preferences.allowsInsecureHTTP = true
            preferences.actions.activateAction(named: "sign-in")
            try wait { await preferences.settled() }
            XCTAssertTrue(preferences.message.hasPrefix("Signed in."), preferences.message)
            spinMainLoop { labelText(status.label) == "Synced" }
            let saved = try XCTUnwrap(try session.settings.load()).account
            XCTAssertEqual(saved.certificateAuthority?.path, authority)
            XCTAssertTrue(saved.allowsInsecureHTTP)
            let reopened = try SyncPreferencesWindow(session: session, over: nil)
            defer { reopened.window.destroy() }
            XCTAssertEqual(reopened.authorityText, authority)
            XCTAssertTrue(reopened.allowsInsecureHTTP)
            XCTAssertEqual(reopened.serverText, "https://127.0.0.1:\(server.port)")

            preferences.actions.activateAction(named: "sign-out")
            try wait { await preferences.settled() }
        }
    }

    // MARK: Screenshots

    func testScreenshotOfStatusAndBannerOverAWindow() throws {
        let folder = try screenshotFolder()
        try MainActor.assumeIsolated {
            let session = try makeSession()
            let library = session.library
            let sides = Self.conflicted("Field notes")
            _ = try wait {
                let article = try await library.createArticle(sides.mine)
                try await library.recordConflict(
                    articleID: article.id, base: sides.base, local: sides.mine, remote: sides.theirs, baseRevision: 1, remoteRevision: 2)
            }
            let feed = SyncStatusFeed()
            session.follow(feed)
            feed.update { $0 = SyncStatus(activity: .idle, waitingChanges: 3, openConflicts: 1, lastSynced: Date()) }

            let window = Window()
            window.defaultSize = (800, 480)
            let headerBar = adw_header_bar_new()!
            let status = try SyncStatusButton(session: session)
            adw_header_bar_pack_end(OpaquePointer(headerBar), status.widget.widgetPointer)
            let banner = try ConflictBanner(session: session)
            gtk_window_set_titlebar(window.windowPointer, headerBar)
            let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            gtk_box_append(UnsafeMutablePointer<GtkBox>(OpaquePointer(content)), banner.widget.widgetPointer)
            let body = gtk_label_new("The article list and the editor go here.")!
            gtk_widget_set_vexpand(body, 1)
            gtk_box_append(UnsafeMutablePointer<GtkBox>(OpaquePointer(content)), body)
            gtk_window_set_child(window.windowPointer, content)
            window.present()
            defer { window.destroy() }
            spinMainLoop { banner.isShown && labelText(status.label) == "3 changes waiting" }
            XCTAssertEqual(banner.text, "1 article has conflicting changes")

            let path = folder.appending(path: "sync-status-banner.png").path
            try render(window, to: path)
            let image = try Texture(contentsOfFile: path)
            XCTAssertEqual(image.width, window.width)
            XCTAssertGreaterThan(Set(image.pixels()).count, 64, "header bar, banner and text are drawn")

            let preferences = try SyncPreferencesWindow(session: session, over: window)
            preferences.window.present()
            defer { preferences.window.destroy() }
            var drawn = false
            preferences.window.afterNextFrame { drawn = true }
            spinMainLoop { drawn }
            let preferencesPath = folder.appending(path: "sync-preferences.png").path
            try render(preferences.window, to: preferencesPath)
            XCTAssertGreaterThan(Set(try Texture(contentsOfFile: preferencesPath).pixels()).count, 32)
        }
    }
}

@MainActor
private func labelText(_ label: Widget) -> String {
    String(cString: gtk_label_get_label(label.opaquePointer))
}

@MainActor
private func subtitle(_ row: Widget) -> String {
    adw_action_row_get_subtitle(row.pointer(as: AdwActionRow.self)).map { String(cString: $0) } ?? ""
}
