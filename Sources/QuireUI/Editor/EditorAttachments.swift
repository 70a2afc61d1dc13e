import Foundation
import GtkKit
import Library
import Platform
import SyncClient

/// The open article's attachments, as the editor reaches them: where pasted, dropped and chosen
/// files are stored (one save each, in the view context, before the reference goes into the
/// text) and where the preview reads images from. The host makes one for each article it opens.
@MainActor
struct ArticleAttachments {
    let library: Library
    let articleID: UUID
    /// Shows a failure the writer must know of, under a heading.
    let report: @MainActor (String, any Error) -> Void

    /// Stores `data` named `fileName` and returns the attachment.
    func add(fileName: String, data: Data) throws -> AttachmentSummary {
        try library.addAttachmentInViewContext(to: articleID, fileName: fileName, data: data)
    }

    /// The bytes `reference` points to, read off the main thread; nil when the article has no
    /// such attachment or its file is missing or damaged (the preview then shows no image).
    func data(of reference: AttachmentReference) async -> Data? {
        try? await library.attachmentData(sha256: reference.sha256, of: articleID)
    }

    /// Fetches an attachment the article lacks through the sync worker, which stores it; nil
    /// while no account syncs. The window sets it.
    var fetch: (@MainActor (AttachmentReference) async -> AttachmentAnswer?)?

    /// The bytes from the library, or else what ``fetch`` brings: the bytes, or why there are
    /// none. A file the library cannot read (missing or damaged) is said as such, with or
    /// without an account; nil when the article has no such attachment and no account syncs.
    func find(_ reference: AttachmentReference) async -> AttachmentAnswer? {
        do {
            if let data = try await library.attachmentData(sha256: reference.sha256, of: articleID) { return .worker(.bytes(data)) }
        } catch {
            return .libraryFailed(ErrorExplanation(error, libraryPath: library.url.path))
        }
        return await fetch?(reference)
    }
}

/// Putting files and images into the text: a paste of an image or of copied files, a drop of
/// files or an image, and Insert Image… (``chooseImages()``; the window's `win.insert-image`,
/// Ctrl+Shift+M, in its menu). Each file is
/// stored as an attachment of the open article (``ArticleAttachments``) and a Markdown reference
/// to it (`![name](attachment:…)` for an image, `[name](attachment:…)` for any other file)
/// replaces the selection (a drop first puts the caret where it was dropped), as one undo step. When a file cannot be added (too large, unreadable),
/// the writer reads why and nothing goes into the text.
///
/// In the text, each reference's digest (`attachment:<64 hex digits>/`) is drawn small and grey
/// (``digestTag``), so that what the writer reads in it is the file's name. The marking follows
/// the edits: after a pause only the lines they touched are read again (a reference never spans
/// a line break), so a pause in a book costs the edited lines, not the whole text. Below the line
/// of each reference to an image, a thumbnail of it (``thumbnails``).
@MainActor
final class EditorAttachments {
    /// The tag over each reference's scheme and digest.
    static let digestTag = "attachment-digest"

    /// The open article's attachments; nil while no article is open (nothing is taken then).
    var store: ArticleAttachments?
    /// How Insert Image… asks for files (tests answer for the writer).
    var chooser = FileChooser.native
    /// The body's drop target for files and images.
    private(set) var dropTarget: FileDropTarget?
    /// The thumbnails of the images the text refers to.
    let thumbnails: EditorAttachmentThumbnails
    private let view: TextView
    private let buffer: TextBuffer
    /// Pastes and drops being read (tests wait for none).
    private(set) var readsRunning = 0
    private var marking: Timeout?
    /// Where the text changed since the last marking: from `unmarkedStart` (staying before text
    /// inserted at its place) to `unmarkedEnd` (moving after it), while `hasUnmarkedEdits`.
    private let unmarkedStart: TextMark
    private let unmarkedEnd: TextMark
    private var hasUnmarkedEdits = false

    /// The name a pasted or dropped image without a file is stored under.
    static let pastedImageName = "image.png"

    init(view: TextView, buffer: TextBuffer) {
        self.view = view
        self.buffer = buffer
        thumbnails = EditorAttachmentThumbnails(view: view, buffer: buffer, digestTag: Self.digestTag)
        unmarkedStart = buffer.addMark(at: 0, leftGravity: true)
        unmarkedEnd = buffer.addMark(at: 0, leftGravity: false)
        dropTarget = FileDropTarget(on: view) { [weak self] dropped, x, y in self?.take(dropped, atX: x, y: y) ?? false }
        view.takePastes { [weak self] in self?.paste() ?? false }
        buffer.addQuietTag(Self.digestTag, foreground: "rgba(128, 128, 128, 0.8)", scale: 0.7)
        buffer.onInserted { [weak self] range in self?.edited(range) }
        buffer.onDeleted { [weak self] offset in self?.edited(offset..<offset) }
        thumbnails.read = { [weak self] reference in await self?.store?.data(of: reference) }
    }

    private var takesFiles: Bool { store != nil && view.isEditable }

    /// Takes a paste of copied files or of an image; anything else is the view's to paste, and so
    /// is text offered beside an image (an office suite offers a picture of copied text too).
    private func paste() -> Bool {
        let clipboard = view.clipboard
        guard takesFiles, clipboard.offersFiles || (clipboard.offersTexture && !clipboard.offersText) else { return false }
        read { () async throws -> [(String, Data)] in
            if clipboard.offersFiles {
                return try await Self.contents(ofFiles: try await clipboard.readFiles())
            }
            return [(Self.pastedImageName, Data(try await clipboard.readTexture().pngBytes()))]
        }
        return true
    }

    /// Takes a drop: the caret goes where it was dropped, and the references go there.
    private func take(_ dropped: FileDropTarget.Dropped, atX x: Double, y: Double) -> Bool {
        guard takesFiles else { return false }
        let offset = view.offset(atX: x, y: y)
        buffer.select(offset..<offset)
        switch dropped {
        case .files(let paths):
            read { try await Self.contents(ofFiles: paths) }
        case .texture(let texture):
            insert { [(Self.pastedImageName, Data(texture.pngBytes()))] }
        }
        return true
    }

    /// Asks for image files (``chooser``) and puts them at the caret.
    func chooseImages() {
        guard takesFiles, let window = view.enclosingWindow else { return }
        let request = FileRequest(title: gettext("Insert Image"), acceptLabel: gettext("_Insert"), kind: .openImages)
        read { [chooser] in
            let chosen = await chooser.choose(request, window)
            return try await Self.contents(ofFiles: chosen.map(\.path))
        }
    }

    /// Reads files or an image asynchronously, then inserts them at the caret as it is then.
    private func read(_ files: @escaping @MainActor () async throws -> [(String, Data)]) {
        readsRunning += 1
        Task { @MainActor [weak self] in
            let result: Result<[(String, Data)], any Error>
            do { result = .success(try await files()) } catch { result = .failure(error) }
            guard let self else { return }
            self.readsRunning -= 1
            self.insert { try result.get() }
        }
    }

    /// Stores every file, then puts their references in place of the selection as one undo
    /// step; when one cannot be read or stored, the writer reads why and the text stays as it is.
    private func insert(_ files: () throws -> [(String, Data)]) {
        guard let store, view.isEditable else { return }
        do {
            let references = try files().map { name, data in
                let attachment = try store.add(fileName: name, data: data)
                return attachment.reference.markdown(mediaType: attachment.mediaType)
            }
            guard !references.isEmpty else { return }
            buffer.replace(buffer.selection, with: references.joined(separator: "\n"))
        } catch {
            store.report(gettext("Could not add the file to the article"), error)
        }
    }

    /// Widens the stretch to mark again by `range` (in the text as it is now), and marks it after
    /// a pause in typing.
    private func edited(_ range: Range<Int>) {
        if hasUnmarkedEdits {
            let start = min(buffer.offset(of: unmarkedStart), range.lowerBound)
            let end = max(buffer.offset(of: unmarkedEnd), range.upperBound)
            buffer.move(unmarkedStart, to: start)
            buffer.move(unmarkedEnd, to: end)
        } else {
            buffer.move(unmarkedStart, to: range.lowerBound)
            buffer.move(unmarkedEnd, to: range.upperBound)
            hasUnmarkedEdits = true
        }
        marking = Timeout(milliseconds: 300) { [weak self] in self?.markDigests() }
    }

    /// Tags the digest of every reference on the lines edited since the last marking, and nothing
    /// else there: the tags then stand where a marking of the whole text would put them.
    func markDigests() {
        marking = nil
        guard hasUnmarkedEdits else { return }
        hasUnmarkedEdits = false
        let lines = buffer.lineRange(buffer.line(at: buffer.offset(of: unmarkedStart))).lowerBound
            ..< buffer.lineRange(buffer.line(at: buffer.offset(of: unmarkedEnd))).upperBound
        let ranges = Self.digestRanges(in: buffer.text(in: lines))
        buffer.removeTag(Self.digestTag, from: lines)
        for range in ranges { buffer.applyTag(Self.digestTag, to: (lines.lowerBound + range.lowerBound)..<(lines.lowerBound + range.upperBound)) }
        thumbnails.draw(markedReferences())
    }

    /// The reference at each marked digest, in order.
    private func markedReferences() -> [AttachmentReference] {
        buffer.ranges(ofTag: Self.digestTag).compactMap { marked in
            let rest = marked.lowerBound..<buffer.lineRange(buffer.line(at: marked.lowerBound)).upperBound
            return AttachmentReference.occurrences(in: buffer.text(in: rest)).first?.reference
        }
    }

    /// The character ranges (as the buffer counts: Unicode scalars) of `attachment:<digest>/` in
    /// `text`, for each reference Library's ``AttachmentReference/occurrences(in:)`` finds.
    nonisolated static func digestRanges(in text: String) -> [Range<Int>] {
        let markedLength = (AttachmentReference.scheme + ":").unicodeScalars.count + 64 + 1
        var ranges: [Range<Int>] = []
        var offset = 0
        var counted = text.startIndex
        for occurrence in AttachmentReference.occurrences(in: text) {
            offset += text.unicodeScalars.distance(from: counted, to: occurrence.range.lowerBound)
            counted = occurrence.range.lowerBound
            ranges.append(offset..<(offset + markedLength))
        }
        return ranges
    }

    /// The name and bytes of each file, read off the main thread (a 25 MB file would stall typing),
    /// refusing one above the library's limit before reading it.
    private nonisolated static func contents(ofFiles paths: [String]) async throws -> [(String, Data)] {
        try await Task.detached(priority: .userInitiated) {
            try paths.map { path in (URL(fileURLWithPath: path).lastPathComponent, try AttachableFile.read(path)) }
        }.value
    }
}

/// Reading a file to attach: its size is checked before a byte is read (a film dropped by
/// mistake is refused at once), and a failure says which file and why.
enum AttachableFile {
    /// The bytes of the file at `path`. Throws ``LibraryError/attachmentTooLarge(fileName:size:limit:)``
    /// above ``Library/attachmentSizeLimit``, ``AttachableFileError`` when it cannot be read.
    static func read(_ path: String) throws -> Data {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AttachableFileError(path: path, code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw AttachableFileError(path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw AttachableFileError(path: path, code: EISDIR) }
        guard status.st_size <= Library.attachmentSizeLimit else {
            throw LibraryError.attachmentTooLarge(fileName: name, size: Int(status.st_size), limit: Library.attachmentSizeLimit)
        }
        let data: Data
        do {
            // One more byte than the limit: a file that grew since fstat is still refused.
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).read(upToCount: Library.attachmentSizeLimit + 1) ?? Data()
        } catch {
            throw AttachableFileError(path: path, code: (error as NSError).domain == NSPOSIXErrorDomain ? Int32((error as NSError).code) : EIO)
        }
        guard data.count <= Library.attachmentSizeLimit else {
            throw LibraryError.attachmentTooLarge(fileName: name, size: data.count, limit: Library.attachmentSizeLimit)
        }
        return data
    }
}

/// A file to attach that could not be read.
struct AttachableFileError: Error, Sendable, Hashable {
    var path: String
    /// The `errno`.
    var code: Int32
}
