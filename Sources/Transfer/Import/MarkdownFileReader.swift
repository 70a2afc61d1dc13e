import SyncProtocol
import Foundation
import Library

/// Reads a Markdown file back into an article: the front matter that ``MarkdownFile`` writes (and
/// the common subset other tools write, see ``FrontMatter``) is mapped back to the article's fields,
/// and the rest of the file is the body, byte for byte.
///
/// Without front matter, or where it leaves a field out: the title is the text of the first heading,
/// else the file name without its extension; the folder is the folder the file sits in below the
/// imported folder (none for files at its top); the status is draft; created and updated are the
/// file's modification time; the article gets a new ID. A `date` key stands in for `created`.
/// A known key with a value of the wrong kind fails the file with the key and its line.
enum MarkdownFileReader {
    /// The largest Markdown file an import reads.
    static let sizeLimit = 64 << 20

    /// The article in `data`, read from `url`.
    /// - Parameters:
    ///   - folder: the folder the file's location implies, used when the front matter names none.
    ///   - modified: the file's modification time, for dates the front matter does not give.
    static func article(from data: Data, url: URL, folder: String?, modified: Date) throws(ImportError) -> ImportedArticle {
        let path = url.path
        guard var text = String(validating: data, as: UTF8.self) else { throw .notUTF8(path: path) }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let fileTitle = url.deletingPathExtension().lastPathComponent.precomposedStringWithCanonicalMapping

        let frontMatter: FrontMatter?
        do {
            frontMatter = try FrontMatter(splitting: text)
        } catch {
            throw .frontMatter(path: path, line: error.line, reason: error.reason)
        }
        guard let frontMatter else {
            let article = ArticleSnapshot(
                title: firstHeading(in: text) ?? fileTitle, body: text, folder: folder, created: modified, updated: modified)
            return ImportedArticle(article: article, source: url, hasStoredID: false)
        }

        let fields = FieldReader(frontMatter: frontMatter, path: path)
        let body = String(frontMatter.body)
        let id = try fields.uuid(FrontMatterKey.id)
        let title = try fields.string(FrontMatterKey.title) ?? firstHeading(in: body) ?? fileTitle
        let created = try fields.date(FrontMatterKey.created)
        let dated = try fields.date("date")
        let article = ArticleSnapshot(
            id: id ?? UUID(), title: title, body: body,
            folder: try fields.folder(FrontMatterKey.folder, default: folder),
            tags: try fields.tags(FrontMatterKey.tags),
            status: try fields.status(FrontMatterKey.status) ?? .draft,
            isFavorite: try fields.bool(FrontMatterKey.favorite) ?? false,
            created: created ?? dated ?? modified, updated: try fields.date(FrontMatterKey.updated) ?? modified,
            serverRevision: try fields.integer(FrontMatterKey.serverRevision),
            language: try fields.string(FrontMatterKey.language).map(ArticleLanguage.tag(fromBCP47:)))
        return ImportedArticle(article: article, source: url, hasStoredID: id != nil)
    }

    /// The plain text of the first heading, if the document has one with any text.
    static func firstHeading(in markdown: String) -> String? {
        func search(_ node: MarkdownNode) -> String? {
            if node.kind == .heading {
                let text = node.plainText.trimmingCharacters(in: .whitespacesAndNewlines)
                return text.isEmpty ? nil : text
            }
            for child in node.children where child.kind != .paragraph {
                if let found = search(child) { return found }
            }
            return nil
        }
        return search(MarkdownDocument(markdown).rootNode)
    }
}

/// Reads typed fields out of front matter, failing with the key and line when a value does not fit.
private struct FieldReader {
    let frontMatter: FrontMatter
    let path: String

    private func fail(_ key: String, _ entry: FrontMatter.Entry, _ reason: String) -> ImportError {
        .invalidField(path: path, line: entry.line, key: key, reason: reason)
    }

    /// The scalar text of `key`; `nil` when absent or null.
    private func scalar(_ key: String) throws(ImportError) -> (String, FrontMatter.Entry)? {
        guard let entry = frontMatter[key] else { return nil }
        switch entry.value {
        case .null: return nil
        case .scalar(let text, _): return (text, entry)
        case .sequence: throw fail(key, entry, "expected a single value, found a list")
        case .unsupported(let shape): throw fail(key, entry, "\(shape) is not supported here")
        }
    }

    func string(_ key: String) throws(ImportError) -> String? {
        try scalar(key)?.0
    }

    func uuid(_ key: String) throws(ImportError) -> UUID? {
        guard let (text, entry) = try scalar(key) else { return nil }
        guard let id = UUID(uuidString: text) else { throw fail(key, entry, "not a UUID: \(text)") }
        return id
    }

    func date(_ key: String) throws(ImportError) -> Date? {
        guard let (text, entry) = try scalar(key) else { return nil }
        guard let date = Timestamp.date(from: text) else { throw fail(key, entry, "not an ISO 8601 date: \(text)") }
        return date
    }

    func bool(_ key: String) throws(ImportError) -> Bool? {
        guard let (text, entry) = try scalar(key) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw fail(key, entry, "expected true or false, found \(text)")
        }
    }

    func integer(_ key: String) throws(ImportError) -> Int64? {
        guard let (text, entry) = try scalar(key) else { return nil }
        guard let number = Int64(text) else { throw fail(key, entry, "not a whole number: \(text)") }
        return number
    }

    func status(_ key: String) throws(ImportError) -> ArticleStatus? {
        guard let (text, entry) = try scalar(key) else { return nil }
        guard let status = ArticleStatus(rawValue: text.lowercased()) else {
            let known = ArticleStatus.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(key, entry, "unknown status \(text) (expected one of \(known))")
        }
        return status
    }

    /// The folder: the key's value, `nil` for an explicit null or empty name, `default` when absent.
    func folder(_ key: String, default folder: String?) throws(ImportError) -> String? {
        guard frontMatter[key] != nil else { return folder }
        guard let name = try string(key)?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
        return name
    }

    /// Tags from a list, or from one comma-separated value; trimmed, empty ones dropped, each once.
    func tags(_ key: String) throws(ImportError) -> [String] {
        guard let entry = frontMatter[key] else { return [] }
        let raw: [String]
        switch entry.value {
        case .null: raw = []
        case .sequence(let items): raw = items
        case .scalar(let text, _): raw = text.split(separator: ",").map(String.init)
        case .unsupported(let shape): throw fail(key, entry, "\(shape) is not supported here")
        }
        return OrderedNames(raw.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }).names
    }
}
