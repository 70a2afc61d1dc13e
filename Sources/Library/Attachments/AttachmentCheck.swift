import Foundation
import ObjectGraph
import Platform

/// An attachment whose bytes cannot be read back as they were added: its file is missing, cannot
/// be read, or holds other bytes (a flipped bit, a file replaced by hand). `quire check` lists
/// them with the articles they belong to.
public struct AttachmentProblem: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Sendable, Hashable {
        case missing, unreadable, damaged
    }

    public var kind: Kind
    public var attachment: AttachmentSummary
    /// The article's title, for the writer.
    public var articleTitle: String
    /// The file that should hold the bytes (nil for bytes kept in the library file itself).
    public var path: String?

    public var description: String {
        let article = "“\(DisplayTitle.of(articleTitle))” (\(attachment.article?.uuidString.lowercased() ?? "?"))"
        let what = switch kind {
        case .missing: "its file is missing"
        case .unreadable: "its file cannot be read"
        case .damaged: "its bytes changed after it was added"
        }
        return "\(attachment.fileName) in \(article): \(what)" + (path.map { " (\($0))" } ?? "")
    }

    /// Reads every attachment of the library at `url` (opened read-only) and returns those whose
    /// bytes do not have the SHA-256 they were added with.
    public static func all(inLibraryAt url: URL) throws -> [AttachmentProblem] {
        var description = StoreDescription.file(url)
        description.isReadOnly = true
        let container = try PersistentContainer(schema: LibrarySchema.current, store: description)
        defer { container.persistentStore.close() }
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest<StoredAttachment>()).compactMap { attachment in
                let kind: Kind
                var path: String?
                do {
                    guard SHA256.hex(try attachment.contents()) != attachment.sha256 else { return nil }
                    kind = .damaged
                } catch let error as ExternalBinaryError {
                    path = error.path
                    switch error.kind {
                    case .missing: kind = .missing
                    case .unreadable: kind = .unreadable
                    case .damaged: kind = .damaged
                    }
                }
                return AttachmentProblem(kind: kind, attachment: attachment.summary, articleTitle: attachment.article?.title ?? "", path: path)
            }.sorted { ($0.articleTitle, $0.attachment.fileName) < ($1.articleTitle, $1.attachment.fileName) }
        }
    }
}
