import Foundation
import Library

/// Brings the files a Markdown file refers to by relative path (such as an export's
/// `assets/diagram.png`) into the import as attachments, and rewrites those references to the
/// `attachment:` URIs the library uses, so that a Markdown export imports back with every byte.
///
/// Only link and image destinations (`](…)`) are read, and only paths that stay inside the
/// Markdown file's folder: no absolute paths, no `..`, no URLs, no symbolic links, no other
/// Markdown files (a link to another article stays a link). A path that names no file stays as it
/// was; a file that cannot be read fails the Markdown file with its name. A file larger than an
/// attachment may be is left out alone (``ImportError/attachmentTooLarge(path:article:fileName:bytes:limit:)``,
/// as in an archive): the article imports without it, that reference as it was.
enum MarkdownAttachments {
    /// `imported` with the files its body refers to as attachments, and the files left out.
    static func bringIn(_ imported: ImportedArticle) throws(ImportError) -> (ImportedArticle, leftOut: [ImportError]) {
        var imported = imported
        let folder = imported.source.deletingLastPathComponent()
        var files: [String: AttachmentFile] = [:]
        var leftOut: [String: ImportError] = [:]
        var body = ""
        var rest = Substring(imported.article.body)
        while let opening = linkDestinationOpening(in: rest) {
            body += rest[..<opening.upperBound]
            rest = rest[opening.upperBound...]
            let isBracketed = rest.hasPrefix("<")
            let start = isBracketed ? rest.index(after: rest.startIndex) : rest.startIndex
            let end = rest[start...].firstIndex { isBracketed ? $0 == ">" || $0 == "\n" : $0 == ")" || $0.isWhitespace } ?? rest.endIndex
            let destination = String(rest[start..<end])
            guard let relative = localPath(destination),
                  let found = try read(folder.appendingPathComponent(relative), files: &files)
            else { continue }
            switch found {
            case .attachment(let file):
                body += (isBracketed ? "<" : "") + file.reference.uri
            case .tooLarge(let path, let bytes):
                leftOut[path] = .attachmentTooLarge(
                    path: imported.source.path, article: DisplayTitle.of(imported.article.title),
                    fileName: relative, bytes: bytes, limit: Library.attachmentSizeLimit)
                continue
            }
            rest = rest[end...]
        }
        imported.article.body = body + rest
        imported.attachments += files.values.sorted { $0.fileName < $1.fileName }
        return (imported, leftOut.sorted { $0.key < $1.key }.map(\.value))
    }

    /// Where the first `](` in `text` is: searched as bytes. (Foundation's `range(of:)` compares
    /// text as Unicode: about 5 % of importing 5,000 notes; the standard library's generic
    /// `firstRange(of:)` over the UTF-8 view took longer still.)
    private static func linkDestinationOpening(in text: Substring) -> Range<String.Index>? {
        let bytes = text.utf8
        var start = bytes.startIndex
        while let bracket = bytes[start...].firstIndex(of: UInt8(ascii: "]")) {
            let next = bytes.index(after: bracket)
            guard next < bytes.endIndex else { return nil }
            if bytes[next] == UInt8(ascii: "(") { return bracket..<bytes.index(after: next) }
            start = next
        }
        return nil
    }

    /// The relative path a destination names inside the Markdown file's folder, percent-decoded;
    /// nil for anything else.
    private static func localPath(_ destination: String) -> String? {
        guard !destination.isEmpty, !destination.hasPrefix("/"), !destination.hasPrefix("#"),
              let path = destination.removingPercentEncoding, !path.isEmpty
        else { return nil }
        // A scheme (`https:`, `attachment:`, `mailto:`) comes before any slash.
        if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") { return nil }
        let components = path.split(separator: "/")
        guard !components.contains(".."), !path.contains("\0") else { return nil }
        let fileExtension = (path as NSString).pathExtension.lowercased()
        guard fileExtension != "md" && fileExtension != "markdown" else { return nil }
        return path
    }

    /// What a relative path named.
    private enum LocalFile {
        /// The file, read.
        case attachment(AttachmentFile)
        /// A file larger than an attachment may be, left unread.
        case tooLarge(path: String, bytes: Int)
    }

    /// The file at `url`, read once per import of the Markdown file (a file larger than an
    /// attachment may be is not read at all); nil when no regular file is there.
    private static func read(_ url: URL, files: inout [String: AttachmentFile]) throws(ImportError) -> LocalFile? {
        let path = url.standardizedFileURL.path
        if let file = files[path] { return .attachment(file) }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        guard Int(status.st_size) <= Library.attachmentSizeLimit else { return .tooLarge(path: path, bytes: Int(status.st_size)) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let file = AttachmentFile(fileName: url.lastPathComponent, data: data)
        files[path] = file
        return .attachment(file)
    }
}
