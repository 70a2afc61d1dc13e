import CGtk
import Foundation
import GtkKit
import GtkWebKit
import Library
import Platform
import SyncClient
import XCTest

@testable import QuireUI

/// The live preview under Xvfb, in a real WebKit view: it renders what the HTML export renders,
/// follows typing, runs none of the article's scripts, fetches nothing, hands links to the
/// desktop, and scrolls with the text.
final class ArticlePreviewTests: QuireTestCase, @unchecked Sendable {
    override func setUpWithError() throws {
        try super.setUpWithError()
        MainActor.assumeIsolated { settleAnimations() }
    }

    static let article = """
        ## Tides

        | Port | High water |
        |------|-----------:|
        | Brest | 06:12 |

        - [x] Check the charts
        - [ ] Call the harbour master

        ```swift
        let tide = "rising"
        ```

        Read [the almanac](https://example.org/almanac) first.

        """

    /// An editor in a 1400-pixel window with the preview shown beside the text, its first
    /// rendering on screen.
    @MainActor
    private func showPreview(title: String = "Harbour", body: String = article) -> (EditorPane, Window) {
        let editor = try! EditorPane()
        let window = show(editor, width: 1400, height: 800)
        editor.load(title: title, body: body)
        editor.actions.activateAction(named: "preview")
        XCTAssertTrue(editor.isPreviewShown)
        waitForRendering(of: editor)
        return (editor, window)
    }

    /// Waits until the preview shows the editor's latest text.
    @MainActor
    private func waitForRendering(of editor: EditorPane) {
        var shown = false
        editor.previewShownAfter = { _, _ in shown = true }
        spinMainLoop { shown }
        editor.previewShownAfter = nil
    }

    @MainActor
    private func evaluate(_ script: String, in editor: EditorPane) throws -> String {
        var result: Result<String, any Error>?
        Task { @MainActor in
            do { result = .success(try await editor.preview!.evaluate(script)) } catch { result = .failure(error) }
        }
        spinMainLoop { result != nil }
        return try result!.get()
    }

    func testThePreviewShowsTheArticleAsTheExportRendersItAndFollowsTyping() throws {
        try MainActor.assumeIsolated {
            let (editor, window) = showPreview()
            defer { window.destroy() }
            XCTAssertEqual(try evaluate("document.querySelector('h1.title').textContent", in: editor), "\"Harbour\"")
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview h2').textContent", in: editor), "\"Tides\"")
            XCTAssertEqual(try evaluate("document.querySelectorAll('#quire-preview table td').length", in: editor), "2")
            XCTAssertEqual(try evaluate("document.querySelectorAll('#quire-preview input[type=checkbox]').length", in: editor), "2")
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview pre code').textContent", in: editor), #""let tide = \"rising\"\n""#)
            // The same cmark-gfm rendering as the export, with source positions for scroll sync.
            let main = try evaluate("document.getElementById('quire-preview').innerHTML", in: editor)
            XCTAssertTrue(main.contains("data-sourcepos"), main)

            editor.focusBody()
            editor.buffer.select(editor.buffer.characterCount..<editor.buffer.characterCount)
            type("\nThe ebb came at noon.", into: editor.bodyView)
            waitForRendering(of: editor)
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview p:last-of-type').textContent", in: editor), "\"The ebb came at noon.\"")
            let screenshot = try screenshotFolder().appending(path: "preview-typing.png").path
            try render(window, to: screenshot)
        }
    }

    /// Renderings asked for faster than they run (a writer typing into a long article): the
    /// preview ends on the last text, and only the newest of those that waited is rendered.
    func testABurstOfRenderingsEndsOnTheLastTextAndSkipsTheOnesBetween() throws {
        try MainActor.assumeIsolated {
            let (editor, window) = showPreview()
            defer { window.destroy() }
            let preview = editor.preview!
            let before = preview.renderingsRun
            var shown: [Int] = []
            preview.shown = { shown.append($0) }
            var last = 0
            for burst in 1...20 {
                last = preview.show(title: "Harbour", body: "Burst \(burst) of the tide.", topLine: (0, 0))
            }
            spinMainLoop { shown.contains(last) }
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview p').textContent", in: editor), "\"Burst 20 of the tide.\"")
            // The first call's rendering, then the last: the eighteen between were never rendered.
            XCTAssertEqual(preview.renderingsRun - before, 2)
        }
    }

    func testScriptsInTheArticleDoNotRunAndRemoteImagesAreNotFetched() throws {
        let server = try LoopbackServer()
        defer { server.stop() }
        try MainActor.assumeIsolated {
            let image = "http://127.0.0.1:\(server.port)/boat.png"
            let body = """
                <script>document.body.dataset.ran = 'script'</script>

                <img src="x" onerror="document.body.dataset.ran = 'handler'">

                ![A boat](\(image))

                """
            let (editor, window) = showPreview(body: body)
            defer { window.destroy() }
            XCTAssertEqual(try evaluate("document.querySelectorAll('#quire-preview img').length", in: editor), "1")
            // Blocked by the page's policy, the image is done loading without a request.
            var complete = false
            try waitUntil("the image has given up") {
                complete = try evaluate("Array.from(document.images).every(i => i.complete)", in: editor) == "true"
                return complete
            }
            XCTAssertEqual(try evaluate("document.images[0].naturalWidth", in: editor), "0")
            XCTAssertEqual(try evaluate("document.body.dataset.ran ?? 'nothing'", in: editor), "\"nothing\"")
            XCTAssertEqual(server.connections, 0, "the preview asked the network for the image")

            // The control: a web view without the preview's policy does ask the loopback server.
            let control = WebView(content: UserContentManager(world: "control"))
            var loaded = false
            control.loadFinished = { loaded = true }
            let controlWindow = Window()
            controlWindow.child = control
            controlWindow.present()
            defer { controlWindow.destroy() }
            control.loadHTML(#"<html><body><img src="\#(image)?control"></body></html>"#)
            spinMainLoop { loaded && server.connections > 0 }
        }
    }

    /// What the sync worker brings is drawn; what it cannot bring, or the library cannot read or
    /// store, is a sentence saying why, at the image's place and at its own size (lines short
    /// enough for a narrow column); with no account syncing, no image at all (as for any missing
    /// file).
    func testAnImageTheLibraryLacksIsFetchedOrReplacedByASentence() throws {
        try MainActor.assumeIsolated {
            let (editor, window) = showPreview(body: "")
            defer { window.destroy() }
            let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>"#.utf8)
            let downloaded = AttachmentReference(sha256: SHA256.hex(svg), fileName: "buoy.svg")
            let offline = AttachmentReference(sha256: String(repeating: "cd", count: 32), fileName: "far away.png")
            let nowhere = AttachmentReference(sha256: String(repeating: "ef", count: 32), fileName: "typed.png")
            let unsynced = AttachmentReference(sha256: String(repeating: "ab", count: 32), fileName: "unsynced.png")
            let unstored = AttachmentReference(sha256: String(repeating: "12", count: 32), fileName: "unstored.png")
            let failure = ErrorExplanation(CocoaError(.fileWriteOutOfSpace))
            let answers: [AttachmentReference: AttachmentAnswer] = [
                downloaded: .worker(.bytes(svg)), offline: .worker(.unreachable), nowhere: .worker(.notOnServer), unstored: .libraryFailed(failure),
            ]
            var asked: [String] = []
            editor.preview?.readAttachment = { reference in
                asked.append(reference.fileName)
                return answers[reference]
            }
            let shown = [downloaded, offline, nowhere, unstored, unsynced]
            editor.load(title: "Harbour", body: shown.map { "![\($0.fileName)](\($0.uri))" }.joined(separator: "\n\n"))
            waitForRendering(of: editor)
            try waitUntil("every image is done loading") {
                try evaluate("document.images.length === 5 && Array.from(document.images).every(i => i.complete)", in: editor) == "true"
            }
            let sizes = [offline, nowhere, unstored].map { AttachmentPlaceholder.size(of: AttachmentPlaceholder.sentence(for: $0, answers[$0]!)) }
            XCTAssertEqual(try evaluate("Array.from(document.images).map(i => [i.naturalWidth, i.naturalHeight])", in: editor),
                           "[[40,30]," + sizes.map { "[\($0.width),\($0.height)]" }.joined(separator: ",") + ",[0,0]]")
            XCTAssertEqual(Set(asked), Set(shown.map(\.fileName)))
            XCTAssertTrue(AttachmentPlaceholder.sentence(for: offline, .worker(.unreachable)).contains("far away.png"))
            XCTAssertNotEqual(AttachmentPlaceholder.sentence(for: offline, .worker(.unreachable)), AttachmentPlaceholder.sentence(for: offline, .worker(.notOnServer)))
            XCTAssertTrue(AttachmentPlaceholder.sentence(for: unstored, .libraryFailed(failure)).hasSuffix(failure.sentence))
        }
    }

    /// A placeholder's sentence is broken at spaces into lines a narrow column holds at full size.
    func testAPlaceholderSentenceIsBrokenIntoLinesANarrowColumnHolds() {
        let sentence = "“harbour at dawn, from the north pier.png” is missing: neither this library nor the server has it."
        let lines = AttachmentPlaceholder.lines(of: sentence)
        XCTAssertEqual(lines.joined(separator: " "), sentence)
        XCTAssertTrue(lines.allSatisfy { $0.count <= AttachmentPlaceholder.lineLength }, "\(lines)")
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertEqual(AttachmentPlaceholder.size(of: sentence).height, 48 + 2 * 18)
        let word = String(repeating: "x", count: 50)
        XCTAssertEqual(AttachmentPlaceholder.lines(of: "a \(word) b"), ["a", String(word.prefix(38)), String(word.dropFirst(38)) + " b"],
                       "a longer word is cut")
        XCTAssertEqual(AttachmentPlaceholder.size(of: "Short.").height, 48)
    }

    func testALinkClickAsksTheDesktopAndThePreviewStays() throws {
        try MainActor.assumeIsolated {
            let (editor, window) = showPreview()
            defer { window.destroy() }
            var opened: [String] = []
            editor.preview?.openLink = { opened.append($0) }
            _ = try evaluate("document.querySelector('#quire-preview a').click()", in: editor)
            spinMainLoop { !opened.isEmpty }
            XCTAssertEqual(opened, ["https://example.org/almanac"])
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview h2').textContent", in: editor), "\"Tides\"")
        }
    }

    func testFootnotesShowAtTheEndAndTheirLinksStayInThePreview() throws {
        try MainActor.assumeIsolated {
            let body = "The tide came in early[^tide].\n\n" + String(repeating: "Gulls argued over the nets.\n\n", count: 60)
                + "[^tide]: By the almanac, an hour before its time.\n"
            let (editor, window) = showPreview(body: body)
            defer { window.destroy() }
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview sup.footnote-ref a').textContent", in: editor), "\"1\"")
            XCTAssertEqual(
                try evaluate("document.querySelector('#quire-preview section.footnotes li#fn-tide p').firstChild.textContent", in: editor),
                "\"By the almanac, an hour before its time. \"")
            XCTAssertEqual(try evaluate("document.querySelector('#quire-preview').textContent.includes('[^tide]')", in: editor), "false")

            // The note's number jumps to the note, inside the preview; nothing goes to the desktop.
            var opened: [String] = []
            editor.preview?.openLink = { opened.append($0) }
            _ = try evaluate("document.querySelector('#quire-preview sup.footnote-ref a').click()", in: editor)
            try waitUntil("the preview scrolled to the note") { try evaluate("window.scrollY > 0", in: editor) == "true" }
            XCTAssertEqual(try evaluate("location.hash", in: editor), "\"#fn-tide\"")
            XCTAssertEqual(opened, [])
        }
    }

    func testScrollingTheTextScrollsThePreviewToTheSameParagraph() throws {
        try MainActor.assumeIsolated {
            let body = (1...120).map { "## Part \($0)\n\nParagraph \($0) of the long article, with enough words to wrap once or twice in the column.\n" }
                .joined(separator: "\n")
            let (editor, window) = showPreview(title: "Long", body: body)
            defer { window.destroy() }
            // Part 60 starts at line 4 × 59 (from 0; cmark counts from 1).
            let line = 4 * 59
            // GTK lays a long text out in steps after the first frame, which moves lines by a few
            // pixels: scroll to the line until the preview's top block is the one at the text's top.
            var top = ""
            try waitUntil("the preview shows the text's top paragraph at its top") {
                editor.bodyView.scroll(toLine: line, in: editor.scroller.verticalAdjustment)
                for _ in 0..<50 { g_main_context_iteration(nil, 0) }
                let editorTop = editor.bodyView.topVisibleLine.line
                top = try evaluate("quire.topLine()[0]", in: editor)
                // A blank line at the text's top shows as the end of the block above it.
                return abs(editorTop - line) <= 1 && Int(top).map { abs($0 - (editorTop + 1)) <= 1 } == true
            }
        }
    }

    func testScrollingThePreviewWithTheWheelScrollsTheTextToTheSameParagraph() throws {
        try requireXdotool()
        try MainActor.assumeIsolated {
            let body = (1...120).map { "## Part \($0)\n\nParagraph \($0) of the long article, with enough words to wrap once or twice in the column.\n" }
                .joined(separator: "\n")
            let (editor, window) = showPreview(title: "Long", body: body)
            defer { window.destroy() }
            spinMainLoop { gtk_window_is_active(window.windowPointer) != 0 }
            XCTAssertEqual(editor.bodyView.topVisibleLine.line, 0)
            // Wheel clicks over the preview (the window's right half; without a window manager
            // Xvfb puts the window at the screen's corner), as a mouse sends them: the preview
            // reports only scrolling the writer did.
            try press(["mousemove", "1100", "400", "click", "--repeat", "20", "--delay", "20", "5"])
            var previewTop = 0
            try waitUntil("the text shows the preview's top paragraph at its top") {
                for _ in 0..<50 { g_main_context_iteration(nil, 0) }
                previewTop = Int(try evaluate("quire.topLine()[0]", in: editor)) ?? 0
                // cmark counts lines from 1, the buffer from 0.
                return previewTop > 10 && abs(editor.bodyView.topVisibleLine.line + 1 - previewTop) <= 1
            }
            XCTAssertGreaterThan(previewTop, 10, "the wheel scrolled the preview")
        }
    }

}
