import Foundation
import GtkKit
import Library
import Transfer

/// A small picture of each image an article refers to, below the line of its reference in the
/// editor, while the text stays exactly the writer's: the line gets room below it from a tag
/// (``roomTag``) and the picture is a widget over the text view at that place (no anchor
/// character in the buffer, nothing in the undo history).
///
/// The references are the ones ``EditorAttachments`` marked (its digest tag moves with the
/// text); the owner calls ``draw(_:)`` after each marking. Each attachment's bytes are read and
/// drawn at ``side`` pixels off the main thread (``AttachmentThumbnail``) once, and kept by digest
/// (the same digest is the same bytes in any article). The pictures follow their lines when the
/// text above them changes or is laid out again (a new width, a long text measured in steps).
@MainActor
final class EditorAttachmentThumbnails {
    /// The tag that leaves room below a line for its thumbnails.
    static let roomTag = "attachment-thumbnail-room"
    /// The longer side of a thumbnail, in pixels.
    nonisolated static let side = 96
    /// The space above and below a row of thumbnails, and between two of them.
    static let gap = 6

    /// Reads the bytes of an attachment of the open article, off the main thread (nil when it has
    /// none such, or no article is open).
    var read: (@MainActor (AttachmentReference) async -> Data?)?

    private let view: TextView
    private let buffer: TextBuffer
    /// The tag over each reference's `attachment:<digest>/`.
    private let digestTag: String
    /// Drawn thumbnails by digest; nil for bytes that are no image Quire draws.
    private var drawn: [String: Texture?] = [:]
    private var drawing: Set<String> = []
    /// The file name each digest was last referred to by: what a screen reader says for its picture.
    private var fileNames: [String: String] = [:]
    /// The pictures over the text, in the order of their references.
    private var pictures: [(digest: String, picture: Picture, frame: Frame)] = []
    /// Pictures over the text that show nothing, hidden, for the next thumbnails: a text view's
    /// child stays until the view goes (``TextView/addOverlay(_:x:y:)``), so pictures are reused,
    /// never added for each thumbnail shown.
    private var sparePictures: [Picture] = []
    private var placing: Timeout?
    private var watchedAdjustment: Adjustment?

    /// Where a picture stands, in buffer coordinates.
    struct Frame: Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// Thumbnails in `view` for the references whose digests `buffer` tags with `digestTag`.
    init(view: TextView, buffer: TextBuffer, digestTag: String) {
        self.view = view
        self.buffer = buffer
        self.digestTag = digestTag
        buffer.addSpaceBelowTag(Self.roomTag, pixels: Self.side + 2 * Self.gap)
        // Text typed above a picture moves its line at once; the marking comes after a pause.
        buffer.connect(Signal<() -> Void>("changed")) { [weak self] in
            guard let self, !self.pictures.isEmpty else { return }
            self.schedulePlacing()
        }
    }

    /// The digests of the thumbnails shown now, in the order of their references.
    var shownDigests: [String] { pictures.map(\.digest) }

    /// Where each picture stands (tests compare it with the text's lines).
    var shownFrames: [Frame] { pictures.map(\.frame) }

    /// Draws the thumbnails of `references` not drawn yet (the references in the text after a
    /// marking) and places every picture again.
    func draw(_ references: [AttachmentReference]) {
        for reference in references {
            fileNames[reference.sha256] = reference.fileName
            if drawn[reference.sha256] == nil && !drawing.contains(reference.sha256) { draw(reference) }
        }
        placeNow()
    }

    private func schedulePlacing() {
        guard placing?.isPending != true else { return }
        placing = Timeout(milliseconds: 0) { [weak self] in self?.placeNow() }
    }

    /// Reads and draws one attachment, then places the pictures again.
    private func draw(_ reference: AttachmentReference) {
        guard let read else { return }
        drawing.insert(reference.sha256)
        Task { @MainActor [weak self] in
            let data = await read(reference)
            let thumbnail = await Task.detached(priority: .utility) { data.flatMap { AttachmentThumbnail($0, fitting: Self.side) } }.value
            guard let self else { return }
            self.drawing.remove(reference.sha256)
            // Bytes that could not be read now may be there later (a download, an undo).
            guard data != nil else { return }
            self.drawn[reference.sha256] = thumbnail.map {
                Texture(premultipliedARGB: $0.pixels, width: $0.width, height: $0.height, stride: $0.stride)
            }
            self.placeNow()
        }
    }

    /// Gives each line with drawn thumbnails its room, and puts the pictures below it.
    private func placeNow() {
        placing = nil
        watchLayout()
        // The lines in order, each with its thumbnails in the order of their references.
        var lines: [(start: Int, textures: [(String, Texture)])] = []
        let digestStart = (AttachmentReference.scheme + ":").count
        for marked in buffer.ranges(ofTag: digestTag) {
            let digest = String(buffer.text(in: marked).dropFirst(digestStart).prefix(64))
            guard case let texture?? = drawn[digest] else { continue }
            let start = buffer.offset(ofLine: buffer.line(at: marked.lowerBound))
            if lines.last?.start == start {
                lines[lines.count - 1].textures.append((digest, texture))
            } else {
                lines.append((start, [(digest, texture)]))
            }
        }
        giveRoom(toLinesStartingAt: lines.map(\.start))
        var placed = 0
        for line in lines {
            let extent = view.verticalExtent(ofLineAt: line.start)
            let y = extent.y + extent.height - Self.side - Self.gap
            var x = view.left(ofCharacterAt: line.start)
            for (digest, texture) in line.textures {
                put(digest, texture, at: placed, Frame(x: x, y: y + (Self.side - texture.height) / 2, width: texture.width, height: texture.height))
                x += texture.width + Self.gap
                placed += 1
            }
        }
        for (_, picture, _) in pictures[placed...] { putAside(picture) }
        pictures.removeSubrange(placed...)
    }

    /// Shows `texture` as the `index`-th picture in `frame`: the picture already there takes the
    /// attachment's texture when it showed another, and a picture is added only past the last.
    private func put(_ digest: String, _ texture: Texture, at index: Int, _ frame: Frame) {
        guard index < pictures.count else {
            pictures.append((digest, picture(showing: texture, of: digest, at: frame), frame))
            return
        }
        let shown = pictures[index]
        if shown.digest != digest {
            shown.picture.setTexture(texture)
            shown.picture.setAlternativeText(fileNames[digest] ?? "")
        }
        if shown.frame != frame { view.moveOverlay(shown.picture, x: frame.x, y: frame.y) }
        pictures[index] = (digest, shown.picture, frame)
    }

    /// A picture of `texture` over the text in `frame`: a spare one shown again, or a new one.
    private func picture(showing texture: Texture, of digest: String, at frame: Frame) -> Picture {
        let picture: Picture
        if let spare = sparePictures.popLast() {
            picture = spare
            picture.setTexture(texture)
            view.moveOverlay(picture, x: frame.x, y: frame.y)
            picture.isVisible = true
        } else {
            picture = Picture(texture)
            // Clicks go to the text below: the picture is only to look at.
            picture.setProperty("can-target", false)
            view.addOverlay(picture, x: frame.x, y: frame.y)
        }
        picture.setAlternativeText(fileNames[digest] ?? "")
        return picture
    }

    /// Hides a picture no longer placed, without its texture, for a later thumbnail.
    private func putAside(_ picture: Picture) {
        picture.isVisible = false
        picture.setTexture(nil)
        sparePictures.append(picture)
    }

    /// Puts the room tag on exactly the lines that start at `starts` (each from its start, which
    /// is where GTK reads a paragraph's spacing, through its line break).
    private func giveRoom(toLinesStartingAt starts: [Int]) {
        var wanted: [Range<Int>] = []
        for start in starts {
            let line = buffer.lineRange(buffer.line(at: start))
            let end = min(buffer.characterCount, line.upperBound + 1)
            // Tagged neighbours read back as one range.
            if let last = wanted.last, last.upperBound == start { wanted[wanted.count - 1] = last.lowerBound..<end } else { wanted.append(start..<end) }
        }
        let tagged = buffer.ranges(ofTag: Self.roomTag)
        guard tagged != wanted else { return }
        for range in tagged { buffer.removeTag(Self.roomTag, from: range) }
        for range in wanted { buffer.applyTag(Self.roomTag, to: range) }
    }

    /// Places the pictures again whenever the laid-out text changes height: lines above them
    /// measured or wrapped anew move them.
    private func watchLayout() {
        guard watchedAdjustment == nil, let adjustment = view.verticalAdjustment else { return }
        watchedAdjustment = adjustment
        adjustment.connect(.notify("upper")) { [weak self] _ in
            guard let self, !self.pictures.isEmpty else { return }
            self.schedulePlacing()
        }
    }
}
