import Foundation
import Library

/// Why one file (or one article or attachment in it) could not be imported. The other files still import.
public enum ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is larger than an import accepts.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// The file is not UTF-8 text.
    case notUTF8(path: String)
    /// The front matter is not YAML this importer understands.
    case frontMatter(path: String, line: Int, reason: String)
    /// A front matter field Quire knows has a value it cannot use.
    case invalidField(path: String, line: Int, key: String, reason: String)
    /// A `.json` file that is not a Quire archive.
    case notAnArchive(path: String)
    /// An archive written by a newer Quire.
    case unsupportedArchiveVersion(path: String, found: Int, newestSupported: Int)
    /// An archive whose content does not decode.
    case malformedArchive(path: String, reason: String)
    /// A second article with an ID the import already has from another file.
    case duplicateID(path: String, id: UUID, firstSeenIn: String)
    /// An attachment larger than a library takes, in an archive or named by a Markdown file's
    /// relative reference (`fileName` is then that path): the article imports without it, its
    /// reference text kept.
    case attachmentTooLarge(path: String, article: String, fileName: String, bytes: Int, limit: Int)

    /// Whether only an attachment was left out: its article was imported (with its reference text).
    public var leftOutOnlyAnAttachment: Bool {
        if case .attachmentTooLarge = self { return true }
        return false
    }

    /// The file the error is about.
    public var path: String {
        switch self {
        case .unreadable(let path, _), .tooLarge(let path, _, _), .notUTF8(let path), .frontMatter(let path, _, _),
             .invalidField(let path, _, _, _), .notAnArchive(let path), .unsupportedArchiveVersion(let path, _, _),
             .malformedArchive(let path, _), .duplicateID(let path, _, _), .attachmentTooLarge(let path, _, _, _, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read: \(reason)"
        case .tooLarge(let path, let bytes, let limit): return "\(path): \(bytes) bytes, more than the \(limit) an import accepts"
        case .notUTF8(let path): return "\(path): not UTF-8 text"
        case .frontMatter(let path, let line, let reason): return "\(path):\(line): front matter: \(reason)"
        case .invalidField(let path, let line, let key, let reason): return "\(path):\(line): \(key): \(reason)"
        case .notAnArchive(let path): return "\(path): not a Quire archive"
        case .unsupportedArchiveVersion(let path, let found, let newest):
            return "\(path): archive format \(found) is newer than this Quire reads (\(newest)); update Quire"
        case .malformedArchive(let path, let reason): return "\(path): damaged archive: \(reason)"
        case .duplicateID(let path, let id, let first):
            return "\(path): article \(id.uuidString.lowercased()) was already imported from \(first)"
        case .attachmentTooLarge(let path, let article, let fileName, let bytes, let limit):
            return "\(path): “\(article)”: the attachment \(fileName) has \(bytes) bytes, more than the \(limit) a library takes; "
                + "the article is imported without it and keeps its reference"
        }
    }
}
