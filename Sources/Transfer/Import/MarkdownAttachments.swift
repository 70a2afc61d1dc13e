import Foundation
import Library

/// Brings the files a Markdown file refers to by relative path (such as an export's
/// `assets/diagram.png`) into the import as attachments, and rewrites those references to the
/// `attachment:` URIs the library uses, so that a Markdown export imports back with every byte.
///
/// Only link and image destinations (`](…)`) are read, and only paths that stay inside the
/// Markdown file's folder: no absolute paths, no `..`, no URLs, no symbolic links, no other
/// Markdown files (a link to another article stays a link). A path that names no file stays as it
/// was; a file that cannot be read, or is larger than an attachment may be, fails the Markdown file
/// with its name.
enum MarkdownAttachments {
    /// `imported` with the files its body refers to as attachments.
    static func bringIn(_ imported: ImportedArticle) throws(ImportError) -> ImportedArticle {
        var imported = imported
        let folder = imported.source.deletingLastPathComponent()
        var files: [String: AttachmentFile] = [:]
        var body = ""
        var rest = Substring(imported.article.body)
        while let opening = rest.range(of: "](") {
            body += rest[..<opening.upperBound]
            rest = rest[opening.upperBound...]
            let isBracketed = rest.hasPrefix("<")
            let start = isBracketed ? rest.index(after: rest.startIndex) : rest.startIndex
            let end = rest[start...].firstIndex { isBracketed ? $0 == ">" || $0 == "\n" : $0 == ")" || $0.isWhitespace } ?? rest.endIndex
            let destination = String(rest[start..<end])
            guard let relative = localPath(destination),
                  let file = try read(folder.appendingPathComponent(relative), files: &files)
            else { continue }
            body += (isBracketed ? "<" : "") + file.reference.uri
            rest = rest[end...]
        }
        imported.article.body = body + rest
        imported.attachments += files.values.sorted { $0.fileName < $1.fileName }
        return imported
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

    /// The attachment for the file at `url`, read once per import of the Markdown file; nil when no
    /// regular file is there.
    private static func read(_ url: URL, files: inout [String: AttachmentFile]) throws(ImportError) -> AttachmentFile? {
        let path = url.standardizedFileURL.path
        if let file = files[path] { return file }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        guard Int(status.st_size) <= Library.attachmentSizeLimit else {
            throw .tooLarge(path: path, bytes: Int(status.st_size), limit: Library.attachmentSizeLimit)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let file = AttachmentFile(fileName: url.lastPathComponent, data: data)
        files[path] = file
        return file
    }
}
