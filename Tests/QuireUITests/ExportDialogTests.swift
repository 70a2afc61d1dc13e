import CGtk
import Foundation
import GtkKit
import Library
import Transfer
import XCTest

@testable import QuireUI

/// The export dialog under Xvfb, with the destination answered in place of the native file
/// chooser: every format writes its files, progress, Cancel leaving no files, consent before
/// replacing, the toast's "Open Folder", a screenshot; and the pure choices.
final class ExportDialogTests: TransferTestCase, @unchecked Sendable {
    /// A library of three articles: two drafts (one in "Essays") and one published.
    private func makeSampleLibrary() throws -> (Library, [ArticleSnapshot]) {
        let library = try makeLibrary()
        let articles = try MainActor.assumeIsolated {
            try wait {
                let alpha = try await library.createArticle(
                    ArticleContent(title: "Alpha", body: "# Alpha\n\nThe first *draft*.\n", folder: "Essays", tags: ["notes"]))
                let beta = try await library.createArticle(ArticleContent(title: "Beta", body: "Published text.\n", status: .published))
                let gamma = try await library.createArticle(ArticleContent(title: "Gamma", body: "- one\n- two\n"))
                return [alpha, beta, gamma]
            }
        }
        return (library, articles)
    }

    /// Runs the dialog's export to `destination` with `configure`'s choices and waits for the outcome.
    @MainActor
    private func export(
        _ library: Library, to destination: URL, selection: [UUID] = [], folders: [String] = ["Essays"],
        openFolder: @escaping @MainActor (URL) throws -> Void = { _ in }, configure: (ExportDialog) -> Void
    ) throws -> (ExportDialog, ExportDialog.Outcome?) {
        let host = makeHost()
        let dialog = try ExportDialog(
            library: library, over: host.window, toastOverlay: host.toastOverlay, selection: selection, folders: folders,
            fileChooser: .answering([destination]), openFolder: openFolder)
        dialog.present()
        configure(dialog)
        XCTAssertTrue(dialog.actions.activateAction(named: "export"))
        spinMainLoop { dialog.outcome != nil || dialog.replaceConfirmation != nil }
        return (dialog, dialog.outcome)
    }

    func testEachFormatWritesItsFilesAndLeavesAToastThatOpensTheFolder() throws {
        let (library, _) = try makeSampleLibrary()
        let root = try makeTemporaryFolder()
        try MainActor.assumeIsolated {
            let cases: [(String, ExportChoices.FormatChoice, Bool, [String])] = [
                ("md", .markdown, false, ["Alpha.md", "Beta.md", "Gamma.md"]),
                ("html", .html, false, ["Alpha.html", "Beta.html", "Gamma.html"]),
                ("pdf", .pdf, false, ["Alpha.pdf", "Beta.pdf", "Gamma.pdf"]),
            ]
            for (name, format, combined, expected) in cases {
                let folder = root.appending(path: name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                var opened: [URL] = []
                let (dialog, outcome) = try export(library, to: folder, openFolder: { opened.append($0) }) {
                    $0.choose(scope: .library, format: format, combined: combined)
                }
                guard case .exported(let result) = outcome else { return XCTFail("\(name): \(String(describing: outcome))") }
                XCTAssertEqual(result.articleCount, 3)
                XCTAssertEqual(try contents(of: folder), expected, "\(name): one file per article, no staging left")
                XCTAssertFalse(dialog.window.isOpen, "a finished export closes the dialog")
                let toast = try XCTUnwrap(dialog.toast)
                XCTAssertEqual(toast.folder?.standardizedFileURL, folder.standardizedFileURL)
                toast.openOutputFolder()
                XCTAssertEqual(opened.map(\.standardizedFileURL), [folder.standardizedFileURL])
            }
            let markdown = try String(contentsOf: root.appending(path: "md/Alpha.md"), encoding: .utf8)
            XCTAssertTrue(markdown.hasSuffix("# Alpha\n\nThe first *draft*.\n"), markdown)
            XCTAssertTrue(markdown.contains("folder: \"Essays\""), markdown)
            let pdf = try Data(contentsOf: root.appending(path: "pdf/Gamma.pdf"))
            XCTAssertEqual(Array(pdf.prefix(5)), Array("%PDF-".utf8))

            for (name, format) in [("combined.html", ExportChoices.FormatChoice.html), ("combined.pdf", .pdf)] {
                let file = root.appending(path: name)
                let (_, outcome) = try export(library, to: file) { $0.choose(scope: .drafts, format: format, combined: true) }
                guard case .exported(let result) = outcome else { return XCTFail("\(name): \(String(describing: outcome))") }
                XCTAssertEqual(result.articleCount, 2, "the drafts: Alpha and Gamma")
                XCTAssertEqual(result.files.map(\.lastPathComponent), [name])
            }
            let combined = try String(contentsOf: root.appending(path: "combined.html"), encoding: .utf8)
            XCTAssertTrue(combined.contains("Alpha") && combined.contains("Gamma") && !combined.contains("Published text"))

            for (name, metadata) in [("with.json", true), ("without.json", false)] {
                let file = root.appending(path: name)
                let (_, outcome) = try export(library, to: file) { $0.choose(scope: .library, format: .jsonArchive, syncMetadata: metadata) }
                guard case .exported = outcome else { return XCTFail("\(name): \(String(describing: outcome))") }
                let archive = try LibraryArchive.read(from: Data(contentsOf: file), path: file.path)
                XCTAssertEqual(archive.articles.map(\.title).sorted(), ["Alpha", "Beta", "Gamma"])
                XCTAssertEqual(archive.articles.allSatisfy { $0.sync != nil }, metadata, name)
            }
        }
    }

    func testTheSelectionAndAFolderScopeExportOnlyTheirArticles() throws {
        let (library, articles) = try makeSampleLibrary()
        let root = try makeTemporaryFolder()
        try MainActor.assumeIsolated {
            let selected = root.appending(path: "selected")
            let (dialog, outcome) = try export(library, to: selected, selection: [articles[2].id, articles[1].id]) { _ in }
            XCTAssertEqual(dialog.choices.scope, .selected(count: 2), "the selection is offered first")
            guard case .exported = outcome else { return XCTFail(String(describing: outcome)) }
            XCTAssertEqual(try contents(of: selected), ["Beta.md", "Gamma.md"])

            let essays = root.appending(path: "essays")
            let (_, folderOutcome) = try export(library, to: essays) { $0.choose(scope: .folder, folder: "Essays") }
            guard case .exported = folderOutcome else { return XCTFail(String(describing: folderOutcome)) }
            XCTAssertEqual(try contents(of: essays), ["Alpha.md"])
        }
    }

    func testProgressShowsAndCancelLeavesNoPartialFiles() throws {
        let library = try makeLibrary()
        let folder = try makeTemporaryFolder().appending(path: "out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Before any window: filling the library needs no main loop, so it is not waited for
        // through one (at a load of 25 the 1,500 articles outlasted the main loop's watchdog,
        // which is there for the dialog). Demo libraries have some articles in the trash, which
        // a library export leaves out.
        let total = try blocking {
            try await library.addDemoArticles(count: 1500)
            return try await library.exportSource(for: .library).ids.count
        }
        XCTAssertGreaterThan(total, 1000)
        try MainActor.assumeIsolated {
            let host = makeHost()
            let dialog = try ExportDialog(
                library: library, over: host.window, toastOverlay: host.toastOverlay, selection: [], folders: [],
                fileChooser: .answering([folder]))
            dialog.present()
            dialog.choose(format: .pdf)
            dialog.actions.activateAction(named: "export")
            // Wait for progress part-way, then cancel as the writer would.
            spinMainLoop { dialog.progressBar.property("fraction", as: Double.self) > 0 || dialog.outcome != nil }
            let fraction = dialog.progressBar.property("fraction", as: Double.self)
            XCTAssertGreaterThan(fraction, 0)
            XCTAssertLessThan(fraction, 1)
            XCTAssertTrue(dialog.progressLabel.text.hasSuffix(" of \(total) steps"), dialog.progressLabel.text)
            XCTAssertTrue(dialog.actions.activateAction(named: "cancel"))
            spinMainLoop { dialog.outcome != nil }

            XCTAssertEqual(dialog.outcome, .cancelled)
            XCTAssertEqual(try contents(of: folder), [], "no exported files and no staging folder")
            XCTAssertTrue(dialog.window.isOpen, "a cancelled export goes back to the choices")
            XCTAssertTrue(dialog.messageLabel.text.contains("No files were written"))
            XCTAssertNil(dialog.toast)
        }
    }

    func testAnExistingDestinationIsReplacedOnlyWithConsent() throws {
        let (library, _) = try makeSampleLibrary()
        let file = try makeTemporaryFolder().appending(path: "Library.html")
        try Data("old".utf8).write(to: file)
        try MainActor.assumeIsolated {
            let (dialog, outcome) = try export(library, to: file) { $0.choose(format: .html, combined: true) }
            XCTAssertNil(outcome, "nothing decided while the question is open")
            let question = try XCTUnwrap(dialog.replaceConfirmation)
            XCTAssertEqual(question.property("heading", as: String.self), "Replace “Library.html”?")
            adw_message_dialog_response(question.pointer(as: AdwMessageDialog.self), "cancel")
            spinMainLoop { dialog.replaceConfirmation == nil }
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "old", "declining keeps the file")
            XCTAssertTrue(dialog.window.isOpen)
            XCTAssertTrue(dialog.messageLabel.text.contains("already exists"))

            XCTAssertTrue(dialog.actions.activateAction(named: "export"))
            spinMainLoop { dialog.replaceConfirmation != nil }
            adw_message_dialog_response(dialog.replaceConfirmation!.pointer(as: AdwMessageDialog.self), "replace")
            spinMainLoop { dialog.outcome != nil }
            guard case .exported = dialog.outcome else { return XCTFail(String(describing: dialog.outcome)) }
            let replaced = try String(contentsOf: file, encoding: .utf8)
            XCTAssertTrue(replaced.contains("Alpha") && replaced.contains("Beta"))
        }
    }

    func testAnExportThatFailsSaysWhyAndStaysOpen() throws {
        let (library, _) = try makeSampleLibrary()
        let missing = try makeTemporaryFolder().appending(path: "no/such/folder/out.json")
        try MainActor.assumeIsolated {
            let (dialog, outcome) = try export(library, to: missing) { $0.choose(format: .jsonArchive) }
            guard case .failed(let message) = outcome else { return XCTFail(String(describing: outcome)) }
            XCTAssertTrue(message.contains("out.json"), message)
            XCTAssertTrue(dialog.window.isOpen)
            XCTAssertTrue(dialog.messageLabel.isVisible)
            XCTAssertTrue(dialog.messageLabel.text.hasPrefix("Could not export"))
            // Why, over the export dialog: the sentence, and the details behind an expander.
            let error = try XCTUnwrap(dialog.errors.dialog)
            XCTAssertEqual(error.window.transientFor?.objectPointer, dialog.window.objectPointer)
            XCTAssertEqual(error.window.body, message)
            XCTAssertTrue(error.detailsLabel.text.contains("out.json") && error.detailsLabel.text != message)
            error.window.destroy()
        }
    }

    func testScreenshotOfTheExportDialog() throws {
        let (library, articles) = try makeSampleLibrary()
        let folder = try screenshotFolder()
        try MainActor.assumeIsolated {
            adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_FORCE_LIGHT)
            defer { adw_style_manager_set_color_scheme(adw_style_manager_get_default(), ADW_COLOR_SCHEME_DEFAULT) }
            let host = makeHost()
            let dialog = try ExportDialog(
                library: library, over: host.window, toastOverlay: host.toastOverlay, selection: [articles[0].id],
                folders: ["Essays"], fileChooser: .answering([]))
            dialog.present()
            defer { dialog.window.destroy() }
            dialog.choose(format: .pdf, combined: true)
            XCTAssertTrue(dialog.combinedRow.isVisible)
            XCTAssertFalse(dialog.metadataRow.isVisible)
            let path = folder.appending(path: "export-dialog.png").path
            try render(dialog.window, to: path)
            let image = try Texture(contentsOfFile: path)
            XCTAssertEqual(image.width, dialog.window.width)
            XCTAssertGreaterThan(Set(image.pixels()).count, 32, "rows, labels and buttons are drawn")
        }
    }

    /// HTML offers to embed the attachments, and before the writer exports and after, the dialog
    /// names the attachments the articles refer to that no article holds (no account syncs here:
    /// with a real server, ExportDownloadTests).
    func testHTMLCanEmbedImagesAndTheAttachmentsThatCannotBeExportedAreNamedBeforeAndAfter() throws {
        let library = try makeLibrary()
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>"#.utf8)
        let lost = AttachmentReference(sha256: String(repeating: "cd", count: 32), fileName: "lost chart.png")
        try MainActor.assumeIsolated {
            try wait {
                let article = try await library.createArticle(ArticleContent(title: "Buoys", body: ""))
                let buoy = try await library.addAttachment(to: article.id, fileName: "buoy.svg", data: svg)
                try await library.editArticle(article.id, body: "![buoy](\(buoy.reference.uri))\n\n![lost](\(lost.uri))\n")
            }
            let file = try makeTemporaryFolder().appending(path: "buoys.html")
            let (dialog, outcome) = try export(library, to: file) { dialog in
                dialog.choose(scope: .library, format: .html, combined: true, embedded: true)
                XCTAssertTrue(dialog.embedRow.isVisible)
                self.spinMainLoop { dialog.unavailable != nil }
                XCTAssertEqual(dialog.unavailable?.map(\.fileName), ["lost chart.png"])
                XCTAssertTrue(dialog.attachmentsNote.isVisible)
                XCTAssertTrue(dialog.attachmentsNote.text.contains("“lost chart.png”: not in this library"), dialog.attachmentsNote.text)
            }
            guard case .exported(let result) = outcome else { return XCTFail(String(describing: outcome)) }
            let leftOut = dialog.leftOut
            // Named after the export too, in the result and in the dialog, which stays to say so.
            XCTAssertEqual(leftOut.map(\.fileName), ["lost chart.png"])
            XCTAssertEqual(result.unavailableAttachments.count, 1)
            XCTAssertTrue(dialog.window.isOpen)
            XCTAssertTrue(dialog.attachmentsNote.text.contains("the articles were exported without it"), dialog.attachmentsNote.text)
            XCTAssertTrue(dialog.attachmentsNote.text.contains("“lost chart.png”: not in this library"), dialog.attachmentsNote.text)
            XCTAssertTrue(dialog.messageLabel.text.hasPrefix("Exported 1 article to “"), dialog.messageLabel.text)
            XCTAssertNotNil(dialog.toast)
            dialog.window.destroy()
            let html = try String(contentsOf: file, encoding: .utf8)
            XCTAssertTrue(html.contains("data:image/svg+xml;base64,\(svg.base64EncodedString())"), "the image is inside the page")
            XCTAssertEqual(try contents(of: file.deletingLastPathComponent()), ["buoys.html"], "no assets folder beside it")

            // Only HTML offers it; a screenshot shows the note.
            let host = makeHost()
            let shown = try ExportDialog(library: library, over: host.window, toastOverlay: host.toastOverlay, selection: [],
                                         folders: [], fileChooser: .answering([]))
            shown.present()
            defer { shown.window.destroy() }
            shown.choose(format: .pdf)
            XCTAssertFalse(shown.embedRow.isVisible)
            shown.choose(format: .html)
            spinMainLoop { shown.unavailable != nil && shown.attachmentsNote.isVisible }
            let path = try screenshotFolder().appending(path: "export-dialog-attachments.png").path
            try render(shown.window, to: path)
            XCTAssertGreaterThan(Set(try Texture(contentsOfFile: path).pixels()).count, 32, "rows, labels and the note are drawn")

            // A check that fails says so instead of naming nothing.
            let failing = try ExportDialog(
                library: library, over: host.window, toastOverlay: host.toastOverlay, selection: [], folders: [],
                fileChooser: .answering([]),
                attachments: ExportAttachments(check: { _ in throw CocoaError(.fileReadCorruptFile) }, fetch: { _, _ in [] }))
            failing.present()
            defer { failing.window.destroy() }
            failing.choose(scope: .library)
            spinMainLoop { failing.unavailable != nil }
            XCTAssertTrue(failing.attachmentsNote.isVisible)
            XCTAssertTrue(failing.attachmentsNote.text.hasPrefix("Could not check which attachments these articles lack."),
                          failing.attachmentsNote.text)
        }
    }

    // MARK: Pure choices

    func testChoicesOfferWhatAppliesAndNameTheDestination() {
        let id = UUID()
        var choices = ExportChoices(selection: [id], folders: ["Essays"])
        XCTAssertEqual(choices.scopes, [.selected(count: 1), .folder, .drafts, .unsynced, .library])
        XCTAssertEqual(choices.exportScope, .selected([id]))
        XCTAssertTrue(choices.writesFolder)
        XCTAssertEqual(choices.documentFormat, .markdown)

        choices.format = .html
        choices.isCombined = true
        XCTAssertTrue(choices.offersCombined)
        XCTAssertFalse(choices.writesFolder)
        XCTAssertEqual(choices.documentFormat, .html(.combined(title: "Selected Articles")))
        XCTAssertEqual(choices.suggestedName, "Selected Articles.html")

        choices.scope = .folder
        choices.folder = "Essays/2024"
        choices.format = .jsonArchive
        XCTAssertFalse(choices.offersCombined)
        XCTAssertTrue(choices.offersSyncMetadata)
        XCTAssertFalse(choices.writesFolder, "an archive is one file, combined or not")
        XCTAssertNil(choices.documentFormat, "the archive's options come from the library")
        XCTAssertEqual(choices.exportScope, .folder("Essays/2024"))
        XCTAssertEqual(choices.suggestedName, "Essays-2024.json")

        let plain = ExportChoices(selection: [], folders: [])
        XCTAssertEqual(plain.scopes, [.drafts, .unsynced, .library])
        XCTAssertEqual(plain.scope, .library)
    }
}
