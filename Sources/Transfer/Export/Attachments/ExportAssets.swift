import Foundation
import Library

/// The one `assets/` folder of an export (beside the Markdown or HTML files), holding each
/// attachment the articles refer to once, however many articles refer to it: the same bytes are
/// written once, and two different files with the same name get "name 2.png".
final class ExportAssets {
    /// The folder's name, which exported references start with.
    static let folderName = "assets"

    private let staging: StagingFolder
    private var paths: [String: String] = [:]
    private var names = FileNameSet()

    /// Assets written into `staging` (moved into place with the rest of the export).
    init(staging: StagingFolder) {
        self.staging = staging
    }

    /// The path, relative to the export's folder and percent-encoded for a link, of `file`; its
    /// bytes are written on first use. Nil when its bytes cannot be had.
    func path(for file: AttachmentFile) throws -> String? {
        if let path = paths[file.sha256] { return path }
        guard let data = file.data else { return nil }
        let name = (file.fileName as NSString)
        let stem = name.deletingPathExtension
        let fileExtension = FileName.stem(for: name.pathExtension)
        let claimed = names.claim(title: stem, fileExtension: name.pathExtension.isEmpty ? "" : fileExtension)
        let fileName = claimed.hasSuffix(".") ? String(claimed.dropLast()) : claimed
        let output = try staging.createFile(named: Self.folderName + "/" + fileName)
        try output.write(data)
        try output.close()
        let path = Self.folderName + "/" + (fileName.addingPercentEncoding(withAllowedCharacters: Self.pathCharacters) ?? fileName)
        paths[file.sha256] = path
        return path
    }

    /// Unreserved characters: spaces and parentheses are encoded, so a path never ends a Markdown
    /// link early, and the path needs no escaping in an HTML attribute.
    private static let pathCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}

/// How one exported document refers to an article's attachments: each reference's `attachment:`
/// URI becomes a relative path into ``ExportAssets`` or a `data:` URI; references whose bytes cannot
/// be had keep their URI (and are listed in ``ExportResult/unavailableAttachments``).
struct AttachmentTargets {
    /// The target of each attachment that has one, by SHA-256.
    private var targets: [String: String] = [:]
    /// Media types, by SHA-256, for data URIs.
    private var mediaTypes: [String: String] = [:]
    private let embeds: Bool

    /// Targets for the `files` that `text` refers to, written into `assets`, or embedded as data
    /// URIs when `assets` is nil. (Attachments the text no longer refers to stay out of the export.)
    init(_ files: [AttachmentFile], referencedBy text: String, assets: ExportAssets?) throws {
        embeds = assets == nil
        let referenced = Set(AttachmentReference.all(in: text).map(\.sha256))
        for file in files where referenced.contains(file.sha256) {
            mediaTypes[file.sha256] = file.mediaType
            if let assets {
                targets[file.sha256] = try assets.path(for: file)
            } else if let data = file.data {
                targets[file.sha256] = data.base64EncodedString()
            }
        }
    }

    /// `markdown` with every reference that has a target rewritten to it.
    func markdown(_ markdown: String) -> String {
        AttachmentReference.replacing(in: markdown) { reference, _ in targets[reference.sha256] }
    }

    /// `html` (cmark-gfm's safe HTML) with the references in `src` and `href` attributes rewritten.
    /// A data URI in `src` has the file's media type when it is an image (an SVG stays an image,
    /// which runs no script); every other data URI is `application/octet-stream`, so a link
    /// downloads the file instead of opening it as a page.
    func html(_ html: String) -> String {
        AttachmentReference.replacing(in: html) { reference, before in
            let isSource = before.hasSuffix(" src=\"")
            guard isSource || before.hasSuffix(" href=\""), let target = targets[reference.sha256] else { return nil }
            guard embeds else { return target }
            let mediaType = mediaTypes[reference.sha256] ?? AttachmentMediaType.other
            let shown = isSource && AttachmentMediaType.images.contains(mediaType) ? mediaType : AttachmentMediaType.other
            return "data:\(shown);base64,\(target)"
        }
    }
}
