import Foundation
import Library

/// What an import found in the files and folders the writer chose, before it is compared with the
/// library: the articles, the folders and tags they bring, and the files that failed.
///
/// Folders are searched recursively for `.md`, `.markdown` and `.json` files; hidden files and
/// folders (names starting with a dot, such as `.git` or an export's staging folder) are skipped,
/// and symbolic links to folders are not followed. A file chosen directly is read as an archive when
/// it ends in `.json` and as Markdown otherwise. Each file that cannot be read, and each folder
/// that cannot be listed, is one ``ImportError`` in ``failures``; every other file still imports.
/// An article whose ID an earlier file already brought is a failure too
/// (``ImportError/duplicateID(path:id:firstSeenIn:)``).
public struct ImportScan: Sendable {
    /// The articles, in the order of the files (sorted by path within a folder) and of each archive.
    public var articles: [ImportedArticle] = []
    /// Folder names the files bring: archives' folder lists (empty folders too) and articles' folders.
    public var folders: [String] = []
    /// Tag names the files bring, likewise.
    public var tags: [String] = []
    /// The words of the archives' personal dictionaries, by language.
    public var personalWords: [String: [String]] = [:]
    /// The files (or archive articles) that could not be imported, each with why.
    public var failures: [ImportError] = []

    /// The largest archive an import reads.
    public static let archiveSizeLimit = 1 << 32

    /// Reads every file in `urls`, folders recursively. Throws only `CancellationError`, checked
    /// between files.
    public static func read(_ urls: [URL]) async throws -> ImportScan {
        var scan = ImportScan()
        var firstSource: [UUID: String] = [:]
        var folders = OrderedNames()
        var tags = OrderedNames()
        for url in urls {
            let (files, unlisted) = files(at: url.standardizedFileURL)
            scan.failures += unlisted
            for file in files {
                try Task.checkCancellation()
                let found: FileContents
                do {
                    found = try read(file)
                } catch {
                    scan.failures.append(error)
                    continue
                }
                scan.failures += found.failures
                for imported in found.0 {
                    if imported.hasStoredID {
                        if let first = firstSource[imported.article.id] {
                            scan.failures.append(.duplicateID(path: imported.source.path, id: imported.article.id, firstSeenIn: first))
                            continue
                        }
                        firstSource[imported.article.id] = imported.source.path
                    }
                    scan.articles.append(imported)
                }
                (found.folders + found.0.compactMap(\.article.folder)).forEach { folders.insert($0) }
                (found.tags + found.0.flatMap(\.article.tags)).forEach { tags.insert($0) }
                scan.personalWords.merge(found.words) { earlier, more in earlier + more.filter { !earlier.contains($0) } }
            }
        }
        scan.folders = folders.names
        scan.tags = tags.names
        return scan
    }

    /// What one file brings; `failures` are parts of it left out while the rest imports.
    private typealias FileContents = ([ImportedArticle], folders: [String], tags: [String], words: [String: [String]],
                                      failures: [ImportError])

    /// A file to read, and the folder its place below the chosen folder implies.
    private struct FileToRead {
        let path: String
        let folder: String?
        let isArchive: Bool

        var url: URL { URL(fileURLWithPath: path, isDirectory: false) }
    }

    /// The file at `url`, or the Markdown files and archives in the folder at `url` and below it,
    /// sorted by path, and a failure for each folder or entry below it that could not be looked at.
    private static func files(at url: URL) -> ([FileToRead], unlisted: [ImportError]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return ([FileToRead(path: url.path, folder: nil, isArchive: url.pathExtension.lowercased() == "json")], [])
        }
        var found: [FileToRead] = []
        var unlisted: [ImportError] = []
        collectFiles(in: url.path, named: nil, into: &found, unlisted: &unlisted)
        return (found.sorted { $0.path < $1.path }, unlisted)
    }

    /// Adds the Markdown files and archives in the folder at `path` and its subfolders to `found`:
    /// regular files only, hidden entries skipped, symbolic links not followed (a link to a
    /// folder could lead back up). `name` is the folder's name, nil for the chosen folder, whose
    /// files belong to no folder. One `lstat` per entry: FileManager's enumerator made a URL of
    /// each and, asked whether it was a regular file, looked up its owner's and group's names,
    /// which made listing the files about 10 % of importing 5,000 notes.
    ///
    /// A folder that cannot be listed, or an entry that cannot be looked at, is a failure in
    /// `unlisted` (the notes in it would otherwise be missing from the import without a word);
    /// the rest is still searched. An entry gone since its folder was listed is passed over.
    private static func collectFiles(
        in path: String, named name: String?, into found: inout [FileToRead], unlisted: inout [ImportError]
    ) {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            unlisted.append(.unreadable(path: path, reason: (error as NSError).localizedDescription))
            return
        }
        for entry in entries where !entry.hasPrefix(".") {
            let entryPath = path.hasSuffix("/") ? path + entry : path + "/" + entry
            var status = stat()
            guard lstat(entryPath, &status) == 0 else {
                let code = errno
                if code != ENOENT { unlisted.append(.unreadable(path: entryPath, reason: String(cString: strerror(code)))) }
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                collectFiles(in: entryPath, named: entry, into: &found, unlisted: &unlisted)
            case S_IFREG:
                let fileExtension = (entry as NSString).pathExtension.lowercased()
                guard ["md", "markdown", "json"].contains(fileExtension) else { continue }
                found.append(FileToRead(path: entryPath, folder: name, isArchive: fileExtension == "json"))
            default:
                continue
            }
        }
    }

    private static func read(_ file: FileToRead) throws(ImportError) -> FileContents {
        let path = file.path
        let url = file.url
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        let limit = file.isArchive ? archiveSizeLimit : MarkdownFileReader.sizeLimit
        guard size <= limit else { throw .tooLarge(path: path, bytes: size, limit: limit) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        if file.isArchive {
            let archive = try LibraryArchive.read(from: data, path: path)
            var failures: [ImportError] = []
            let articles = try archive.articles.map { article throws(ImportError) in
                var files: [AttachmentFile] = []
                for attachment in article.attachments ?? [] {
                    // Larger than the library takes: this file is left out with a sentence; its
                    // article imports, its reference text as it was.
                    guard attachment.data.count <= Library.attachmentSizeLimit else {
                        failures.append(.attachmentTooLarge(
                            path: path, article: DisplayTitle.of(article.title), fileName: attachment.fileName,
                            bytes: attachment.data.count, limit: Library.attachmentSizeLimit))
                        continue
                    }
                    guard let restored = attachment.file else {
                        throw .malformedArchive(
                            path: path,
                            reason: "the bytes of \(attachment.fileName) in “\(DisplayTitle.of(article.title))” do not have the SHA-256 recorded with them")
                    }
                    files.append(restored)
                }
                return ImportedArticle(article: article.snapshot, source: url, hasStoredID: true, attachments: files)
            }
            return (articles, archive.folders, archive.tags, archive.personalWords ?? [:], failures)
        }
        let modified = attributes[.modificationDate] as? Date ?? Date()
        let (article, leftOut) = try MarkdownAttachments.bringIn(
            MarkdownFileReader.article(from: data, url: url, folder: file.folder, modified: modified))
        return ([article], [], [], [:], leftOut)
    }
}
