import CGtk
import Foundation
import GtkKit
import Library
import Platform
import XCTest

@testable import QuireUI

/// Images and files put into an article in the window: a real clipboard texture pasted through
/// the text view's paste action, files dropped on the body (the drop target's handler given a
/// real `GdkFileList`: Xvfb has no drag source from another program), Insert Image… (the chooser
/// answered for the writer: a native chooser cannot be driven), each stored in one save with a
/// reference at the caret as one undo step; the preview showing the stored image through its
/// `attachment:` scheme; and a removed reference keeping its attachment until a cleanup.
final class EditorAttachmentTests: MainWindowTestCase, @unchecked Sendable {
    private let harbour = UUID()
    /// A drop point below the body's last line, which is its end.
    private static let belowTheText = 500.0

    private func library() throws -> URL {
        let harbour = harbour
        return try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: "The tide.\n"), id: harbour)
        }
    }

    /// A real PNG: the window as it is drawn now.
    @MainActor
    private func screenshotPNG(of window: MainWindow, named name: String) async throws -> URL {
        let url = try makeTemporaryFolder().appending(path: name)
        try await renderWhenDrawn(window.window, to: url.path)
        return url
    }

    /// Puts the caret at the end of the body, with the focus there.
    @MainActor
    private func caretAtEnd(of window: MainWindow) {
        window.editor.focusBody()
        let end = window.editor.buffer.characterCount
        window.editor.buffer.select(end..<end)
    }

    func testAPastedClipboardImageIsStoredOnceAndInsertedAsOneUndoStep() throws {
        let url = try library()
        let folder = try screenshotFolder()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let png = try await self.screenshotPNG(of: window, named: "shot.png")
            let texture = try Texture(contentsOfFile: png.path)
            self.caretAtEnd(of: window)
            window.editor.bodyView.clipboard.setTexture(texture)
            XCTAssertTrue(window.editor.bodyView.activateAction("clipboard.paste"))
            try await self.until { window.editor.body.contains("](attachment:") }

            let attachments = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(attachments.count, 1)
            let attachment = try XCTUnwrap(attachments.first)
            XCTAssertEqual(attachment.mediaType, AttachmentMediaType.png)
            XCTAssertEqual(attachment.fileName, EditorAttachments.pastedImageName)
            XCTAssertEqual(window.editor.body, "The tide.\n" + attachment.reference.markdown(mediaType: AttachmentMediaType.png))
            // The stored bytes are the pasted picture, pixel for pixel.
            let stored = try await window.library.attachmentData(sha256: attachment.sha256, of: self.harbour)
            let decoded = try Texture(encoded: [UInt8](try XCTUnwrap(stored)))
            XCTAssertEqual(decoded.width, texture.width)
            XCTAssertEqual(decoded.pixels(), texture.pixels())
            // The digest is drawn small and grey, after a pause.
            let buffer = window.editor.buffer
            try await self.until { buffer.ranges(ofTag: EditorAttachments.digestTag).map(buffer.text(in:)) == ["attachment:\(attachment.sha256)/"] }
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "editor-pasted-image.png").path)

            // One undo takes the whole reference out; the attachment stays for a redo.
            window.editor.undo()
            XCTAssertEqual(window.editor.body, "The tide.\n")
            window.editor.redo()
            XCTAssertTrue(window.editor.body.hasSuffix(attachment.reference.uri + ")"))
            let kept = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(kept.map(\.sha256), [attachment.sha256])

            // Text on the clipboard is still pasted as text.
            window.editor.bodyView.clipboard.setText("\nGulls.")
            XCTAssertTrue(window.editor.bodyView.activateAction("clipboard.paste"))
            try await self.until { window.editor.body.hasSuffix("\nGulls.") }
        }
    }

    /// A pasted image gets a thumbnail below its reference's line, in room made for it, and the
    /// text stays the article's (no U+FFFC, undo and redo as before); the thumbnail moves with
    /// its line, goes when the reference is undone and comes back with a redo. Screenshot
    /// editor-thumbnail.png.
    func testAnImageReferenceShowsItsThumbnailBelowItsLineWithoutChangingTheText() throws {
        let harbour = harbour
        let typed = "The tide.\n\nAfter the image."
        let url = try makeLibrary { library in
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: typed), id: harbour)
        }
        let folder = try screenshotFolder()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let editor = window.editor
            // Pure red, twice as wide as high and larger than a thumbnail.
            let red = Texture(premultipliedARGB: Self.pixels(300 * 150, of: Self.red), width: 300, height: 150, stride: 1200)
            editor.focusBody()
            editor.buffer.select(10..<10)
            editor.bodyView.clipboard.setTexture(red)
            XCTAssertTrue(editor.bodyView.activateAction("clipboard.paste"))
            try await self.until { editor.body.contains("](attachment:") }
            let body = editor.body
            let reference = try XCTUnwrap(AttachmentReference.all(in: body).first)
            XCTAssertEqual(body, "The tide.\n" + reference.markdown(mediaType: AttachmentMediaType.png) + "\nAfter the image.")
            let digest = reference.sha256
            let thumbnails = editor.attachments.thumbnails
            try await self.until { thumbnails.shownDigests == [digest] }

            // Drawn to fit 96 pixels, aspect kept, below the reference's line and above the next.
            let referenceLine = 1
            let nextLineStart = editor.buffer.offset(ofLine: referenceLine + 1)
            try await self.until {
                guard let frame = thumbnails.shownFrames.first else { return false }
                let line = editor.bodyView.verticalExtent(ofLineAt: editor.buffer.offset(ofLine: referenceLine))
                return line.height >= EditorAttachmentThumbnails.side + 2 * EditorAttachmentThumbnails.gap
                    && frame.y > line.y && frame.y + frame.height <= editor.bodyView.verticalExtent(ofLineAt: nextLineStart).y
            }
            let frame = try XCTUnwrap(thumbnails.shownFrames.first)
            XCTAssertEqual([frame.width, frame.height], [96, 48])
            let shot = folder.appending(path: "editor-thumbnail.png").path
            try await self.renderWhenDrawn(window.window, to: shot)
            XCTAssertGreaterThanOrEqual(try Self.pixelCount(of: Self.red, in: shot), 96 * 48 * 9 / 10, "the thumbnail is drawn")

            // The text is the article's, character for character.
            XCTAssertEqual(editor.body, body)
            XCTAssertFalse(editor.buffer.text.contains("\u{FFFC}"))

            // A line typed above moves the thumbnail down with its line.
            editor.buffer.replace(0..<0, with: "A line above.\n")
            try await self.until { (thumbnails.shownFrames.first?.y ?? 0) > frame.y }

            // Undo takes the line, then the reference, with its thumbnail; redo brings both back.
            editor.undo()
            XCTAssertEqual(editor.body, body)
            editor.undo()
            XCTAssertEqual(editor.body, typed)
            try await self.until { thumbnails.shownDigests.isEmpty }
            try await self.renderWhenDrawn(window.window, to: shot)
            XCTAssertEqual(try Self.pixelCount(of: Self.red, in: shot), 0)
            editor.redo()
            XCTAssertEqual(editor.body, body)
            try await self.until { thumbnails.shownDigests == [digest] }
            try await self.renderWhenDrawn(window.window, to: shot)
            XCTAssertGreaterThanOrEqual(try Self.pixelCount(of: Self.red, in: shot), 96 * 48 * 9 / 10, "the thumbnail is drawn again")
            // GTK 4.8 cannot take a picture off a text view: the hidden one shows the thumbnail again.
            XCTAssertEqual(editor.bodyView.descendants(ofType: Picture.self).count, 1)

            // A blue image above takes the first picture; undone, that picture is red again and
            // the second is put aside, hidden.
            let blue = Texture(premultipliedARGB: Self.pixels(150 * 150, of: Self.blue), width: 150, height: 150, stride: 600)
            editor.buffer.select(0..<0)
            editor.bodyView.clipboard.setTexture(blue)
            XCTAssertTrue(editor.bodyView.activateAction("clipboard.paste"))
            try await self.until { AttachmentReference.all(in: editor.body).count == 2 }
            let blueDigest = try XCTUnwrap(AttachmentReference.all(in: editor.body).first).sha256
            try await self.until { thumbnails.shownDigests == [blueDigest, digest] }
            try await self.renderWhenDrawn(window.window, to: shot)
            XCTAssertGreaterThanOrEqual(try Self.pixelCount(of: Self.blue, in: shot), 96 * 96 * 9 / 10, "the new thumbnail is drawn")
            XCTAssertGreaterThanOrEqual(try Self.pixelCount(of: Self.red, in: shot), 96 * 48 * 9 / 10, "and the first below it")
            editor.undo()
            XCTAssertEqual(editor.body, body)
            try await self.until { thumbnails.shownDigests == [digest] }
            try await self.renderWhenDrawn(window.window, to: shot)
            XCTAssertEqual(try Self.pixelCount(of: Self.blue, in: shot), 0)
            XCTAssertGreaterThanOrEqual(try Self.pixelCount(of: Self.red, in: shot), 96 * 48 * 9 / 10)
            XCTAssertEqual(editor.bodyView.descendants(ofType: Picture.self).count, 2)
        }
    }

    /// `count` pixels of opaque red as ``Texture/init(premultipliedARGB:width:height:stride:)`` takes them.
    private static let red: UInt32 = 0xFFFF_0000
    private static let blue: UInt32 = 0xFF00_00FF

    /// `count` pixels of one opaque `color` (ARGB), as a texture's bytes.
    private static func pixels(_ count: Int, of color: UInt32) -> [UInt8] {
        (0..<count).flatMap { _ in withUnsafeBytes(of: color) { Array($0) } }
    }

    /// How many pixels of the PNG file at `path` are `color` (opaque ARGB).
    @MainActor
    private static func pixelCount(of color: UInt32, in path: String) throws -> Int {
        try Texture(contentsOfFile: path).pixels().count { $0 == color }
    }

    func testDroppedFilesBecomeAnImageAndALinkAndThePreviewShowsTheImage() throws {
        let url = try library()
        let folder = try screenshotFolder()
        drive(url) { window in
            try await self.resize(window, to: 1500)
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let png = try await self.screenshotPNG(of: window, named: "harbour map.png")
            let notes = try self.makeTemporaryFolder().appending(path: "notes.txt")
            try Data("Tide tables.\n".utf8).write(to: notes)
            // The caret at the start: the files go where they are dropped, below the text.
            window.editor.focusBody()
            window.editor.buffer.select(0..<0)

            let dropTarget = try XCTUnwrap(window.editor.attachments.dropTarget)
            XCTAssertTrue(dropTarget.drop(files: [png.path, notes.path], x: 0, y: Self.belowTheText))
            try await self.until { window.editor.attachments.readsRunning == 0 }
            let pngBytes = try Data(contentsOf: png)
            let image = AttachmentReference(sha256: SHA256.hex(pngBytes), fileName: "harbour map.png")
            let link = AttachmentReference(sha256: SHA256.hex(Data("Tide tables.\n".utf8)), fileName: "notes.txt")
            XCTAssertEqual(
                window.editor.body,
                "The tide.\n" + image.markdown(mediaType: AttachmentMediaType.png) + "\n" + link.markdown(mediaType: AttachmentMediaType.other))
            XCTAssertTrue(window.editor.body.contains("![harbour map.png](attachment:\(image.sha256)/harbour%20map.png)"))
            XCTAssertTrue(window.editor.body.contains("\n[notes.txt](attachment:"))
            let stored = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(Set(stored.map(\.sha256)), [image.sha256, link.sha256])
            let storedPNG = try await window.library.attachmentData(sha256: image.sha256, of: self.harbour)
            XCTAssertEqual(storedPNG, pngBytes, "every byte kept")

            // The digests are drawn small and grey, after a pause.
            let buffer = window.editor.buffer
            try await self.until {
                buffer.ranges(ofTag: EditorAttachments.digestTag).map(buffer.text(in:)) == ["attachment:\(image.sha256)/", "attachment:\(link.sha256)/"]
            }

            // The preview draws the image from the library through its own scheme.
            XCTAssertTrue(window.editor.actions.activateAction(named: "preview"))
            let preview = try XCTUnwrap(window.editor.preview)
            let width = try Texture(contentsOfFile: png.path).width
            try await self.until { (try? await preview.evaluate("document.images[0]?.naturalWidth ?? 0")) == "\(width)" }
            let images = try await preview.evaluate("document.images.length")
            XCTAssertEqual(images, "1", "the link to notes.txt is no image")
            try await self.renderWhenDrawn(window.window, to: folder.appending(path: "preview-attachment.png").path)
        }
    }

    func testThePreviewRefusesWhatIsNotAnImageOfTheArticle() throws {
        let url = try library()
        drive(url) { window in
            try await self.resize(window, to: 1500)
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>"#.utf8)
            let text = Data("not an image".utf8)
            let svgFile = try self.makeTemporaryFolder().appending(path: "buoy.svg")
            try svg.write(to: svgFile)
            let textFile = try self.makeTemporaryFolder().appending(path: "buoy.png")
            try text.write(to: textFile)
            self.caretAtEnd(of: window)
            XCTAssertTrue(try XCTUnwrap(window.editor.attachments.dropTarget).drop(files: [svgFile.path, textFile.path], x: 0, y: Self.belowTheText))
            try await self.until { window.editor.attachments.readsRunning == 0 }
            // The SVG is drawn (an image: its script cannot run); another article's digest and a
            // text file named .png are refused.
            let stranger = AttachmentReference(sha256: String(repeating: "ab", count: 32), fileName: "elsewhere.png")
            window.editor.buffer.replace(window.editor.buffer.selection, with: "\n![lost](\(stranger.uri))\n![text](attachment:\(SHA256.hex(text))/buoy.png)")
            XCTAssertTrue(window.editor.actions.activateAction(named: "preview"))
            let preview = try XCTUnwrap(window.editor.preview)
            try await self.until { (try? await preview.evaluate("document.images.length")) == "3" }
            try await self.until { (try? await preview.evaluate("Array.from(document.images).every(i => i.complete)")) == "true" }
            let widths = try await preview.evaluate("Array.from(document.images).map(i => i.naturalWidth)")
            XCTAssertEqual(widths, "[40,0,0]")
        }
    }

    func testInsertImageStoresTheChosenFilesAtTheCaret() throws {
        let url = try library()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let png = try await self.screenshotPNG(of: window, named: "chart.png")
            window.editor.attachments.chooser = .answering([png])
            window.editor.focusBody()
            window.editor.buffer.select(0..<0)
            XCTAssertTrue(window.window.activateAction(named: "insert-image"))
            try await self.until { window.editor.body.hasPrefix("![chart.png](attachment:") }
            XCTAssertTrue(window.editor.body.hasSuffix(")The tide.\n"))
            let stored = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(stored.map(\.fileName), ["chart.png"])
        }
    }

    func testARemovedReferenceKeepsItsAttachmentUntilACleanup() throws {
        let url = try library()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            let png = try await self.screenshotPNG(of: window, named: "gull.png")
            self.caretAtEnd(of: window)
            XCTAssertTrue(try XCTUnwrap(window.editor.attachments.dropTarget).drop(files: [png.path], x: 0, y: Self.belowTheText))
            try await self.until { window.editor.attachments.readsRunning == 0 }
            XCTAssertEqual(window.session?.save(), true)
            await window.waitForPendingWork()

            // The writer deletes the reference: the attachment stays, and undo brings it back.
            let withImage = window.editor.body
            window.editor.buffer.replace(0..<window.editor.buffer.characterCount, with: "The tide.\n")
            XCTAssertEqual(window.session?.save(), true)
            let afterDelete = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(afterDelete.count, 1)
            window.editor.undo()
            XCTAssertEqual(window.editor.body, withImage)
            XCTAssertEqual(window.session?.save(), true)
            let keptWhileReferenced = try await window.library.removeUnreferencedAttachments()
            XCTAssertEqual(keptWhileReferenced, 0)

            // Deleted again, saved and the article closed (its recovery copy of the typing, which a
            // cleanup respects too, goes with the close), a cleanup collects it.
            window.editor.buffer.replace(0..<window.editor.buffer.characterCount, with: "The tide.\n")
            XCTAssertEqual(window.session?.save(), true)
            window.closeArticle()
            await window.waitForPendingWork()
            let removed = try await window.library.removeUnreferencedAttachments()
            XCTAssertEqual(removed, 1)
            let left = try await window.library.attachments(of: self.harbour)
            XCTAssertEqual(left, [])
        }
    }

    func testATooLargeOrUnreadableFileAddsNothingAndSaysWhy() throws {
        let url = try library()
        let folder = try makeTemporaryFolder()
        drive(url) { window in
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            var reported: [(String, any Error)] = []
            window.editor.attachments.store = ArticleAttachments(library: window.library, articleID: self.harbour) { heading, error in
                reported.append((heading, error))
            }
            // A sparse file one byte over the limit, beside a readable one: neither goes in.
            let large = folder.appending(path: "film.mov")
            XCTAssertTrue(FileManager.default.createFile(atPath: large.path, contents: nil))
            let handle = try FileHandle(forWritingTo: large)
            try handle.truncate(atOffset: UInt64(Library.attachmentSizeLimit + 1))
            try handle.close()
            let small = folder.appending(path: "note.txt")
            try Data("Gulls.".utf8).write(to: small)
            self.caretAtEnd(of: window)
            let dropTarget = try XCTUnwrap(window.editor.attachments.dropTarget)
            XCTAssertTrue(dropTarget.drop(files: [small.path, large.path], x: 0, y: Self.belowTheText))
            try await self.until { window.editor.attachments.readsRunning == 0 }
            XCTAssertEqual(window.editor.body, "The tide.\n")
            XCTAssertEqual(reported.count, 1)
            let tooLarge = try XCTUnwrap(reported.first?.1 as? LibraryError)
            guard case .attachmentTooLarge(let name, let size, _) = tooLarge else { return XCTFail("\(tooLarge)") }
            XCTAssertEqual(name, "film.mov")
            XCTAssertEqual(size, Library.attachmentSizeLimit + 1)
            XCTAssertTrue(ErrorExplanation(tooLarge).sentence.hasPrefix("“film.mov” is "), ErrorExplanation(tooLarge).sentence)

            // A folder cannot be read as a file.
            XCTAssertTrue(dropTarget.drop(files: [folder.path], x: 0, y: Self.belowTheText))
            try await self.until { window.editor.attachments.readsRunning == 0 }
            XCTAssertEqual(window.editor.body, "The tide.\n")
            XCTAssertEqual(reported.count, 2)
            let unreadable = try XCTUnwrap(reported.last?.1 as? AttachableFileError)
            XCTAssertEqual(unreadable.code, EISDIR)
            XCTAssertTrue(ErrorExplanation(unreadable).sentence.hasSuffix("Nothing was added."))
        }
    }

    func testMarkingReferencesKeepsUndoAndRedo() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = Window()
            window.child = editor.widget
            window.present()
            defer { window.destroy() }
            editor.load(title: "Harbour", body: "The tide.\n")
            editor.focusBody()
            let reference = "![gull.png](attachment:\(String(repeating: "0a", count: 32))/gull.png)"
            editor.buffer.replace(editor.buffer.characterCount..<editor.buffer.characterCount, with: reference)
            editor.attachments.markDigests()
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorAttachments.digestTag).count, 1)
            editor.undo()
            XCTAssertEqual(editor.body, "The tide.\n")
            editor.attachments.markDigests()
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorAttachments.digestTag), [])
            editor.redo()
            XCTAssertEqual(editor.body, "The tide.\n" + reference)
        }
    }

    /// Marking only the lines edited since the last marking leaves the tags exactly where a marking
    /// of the whole text puts them, after random insertions and deletions that make, split, join
    /// and break references (a line break or a space typed into one), undo and redo included.
    func testMarkingTheEditedLinesEqualsMarkingTheWholeText() throws {
        try MainActor.assumeIsolated {
            let editor = try EditorPane()
            let window = show(editor)
            defer { window.destroy() }
            let digests = ["0a", "7f", "c3"].map { String(repeating: $0, count: 32) }
            let pieces = digests.map { "![gull.png](attachment:\($0)/gull.png)" } + [
                "[notes.txt](attachment:\(digests[1])/notes.txt)", "attachment:", "\n", "\n\n", " ", "Ünïcöde 🇩🇪", "The tide turns. ", "/", "0a",
            ]
            var random = SeededGenerator(seed: 31)
            editor.load(title: "Harbour", body: "The tide.\n\(pieces[0]) and \(pieces[3])\nMore.\n")
            editor.attachments.markDigests()
            XCTAssertEqual(editor.buffer.ranges(ofTag: EditorAttachments.digestTag).count, 2)
            var marked = 0
            for round in 0..<60 {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let count = editor.buffer.characterCount
                    let start = Int.random(in: 0...count, using: &random)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<6:
                        editor.buffer.replace(start..<start, with: pieces.randomElement(using: &random)!)
                    case 6..<9:
                        editor.buffer.replace(start..<min(count, start + Int.random(in: 1...30, using: &random)), with: "")
                    default:
                        if Bool.random(using: &random) { editor.undo() } else { editor.redo() }
                    }
                }
                editor.attachments.markDigests()
                let tagged = editor.buffer.ranges(ofTag: EditorAttachments.digestTag)
                XCTAssertEqual(tagged, EditorAttachments.digestRanges(in: editor.buffer.text), "after round \(round)")
                marked += tagged.count
            }
            XCTAssertGreaterThan(marked, 60, "the edits kept references to mark")
        }
    }

    /// The marked ranges are counted in Unicode scalars, as the buffer counts, after text whose
    /// characters, scalars, UTF-16 units and bytes all differ in number (a combining accent, a
    /// flag); a scheme without a digest and name is not marked.
    func testTheDigestsAreMarkedWhereTheBufferHasThem() {
        let digest = String(repeating: "7f", count: 32)
        let text = "Ünïcöde\u{301} 🇩🇪 ![a](attachment:\(digest)/a.png) attachment:nothing [b c](attachment:\(digest)/b%20c.txt)"
        let scalars = Array(text.unicodeScalars)
        let marker = Array("attachment:\(digest)/".unicodeScalars)
        let starts = (0...(scalars.count - marker.count)).filter { Array(scalars[$0..<($0 + marker.count)]) == marker }
        XCTAssertEqual(starts.count, 2)
        XCTAssertEqual(EditorAttachments.digestRanges(in: text), starts.map { $0..<($0 + marker.count) })
    }
}
