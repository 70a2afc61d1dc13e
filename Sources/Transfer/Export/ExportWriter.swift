import Foundation
import Library

/// How one export format turns the job's articles into files. The job walks the source `passes`
/// times, hands every article to ``add(_:pass:)``, and then either commits or discards.
protocol ExportWriter: AnyObject {
    /// How many times the job walks the articles.
    var passes: Int { get }
    /// Whether pass `pass` needs the articles' attachments.
    func usesAttachments(pass: Int) -> Bool
    /// Takes the next article of pass `pass` (from 0), with its attachments when the pass uses them
    /// (an empty list otherwise).
    func add(_ article: ArticleSnapshot, attachments: [AttachmentFile], pass: Int) throws
    /// Finishes the output and moves it into place; returns the files written.
    func commit() throws -> [URL]
    /// Removes everything the writer wrote so far; the destination is left as it was.
    func discard()
}

/// Writes one file per article into a ``StagingFolder``, named after the article's title
/// (``FileNameSet``), and renames them all into the destination folder on commit. The renderer gets
/// the article's attachments and, unless they are ``AttachmentOutput/drawn``, where its references
/// point (``AttachmentTargets``).
final class FilePerArticleExport: ExportWriter {
    /// Where the attachments of a file-per-article export go.
    enum AttachmentOutput {
        /// Into the export's `assets/` folder (``ExportAssets``), referred to by relative paths.
        case assetsFolder
        /// Into each file, as data URIs.
        case embedded
        /// Nowhere but into the file's drawing (PDF).
        case drawn
    }

    let passes = 1
    private let staging: StagingFolder
    private let output: AttachmentOutput
    private let assets: ExportAssets?
    private let fileExtension: String
    private let render: (ArticleSnapshot, [AttachmentFile], AttachmentTargets?, OutputFile) throws -> Void
    private var names = FileNameSet()

    init(
        destination: URL, replacing: Bool, fileExtension: String, attachments output: AttachmentOutput,
        render: @escaping (ArticleSnapshot, [AttachmentFile], AttachmentTargets?, OutputFile) throws -> Void
    ) throws {
        staging = try StagingFolder(destination: destination, replacing: replacing)
        self.output = output
        assets = output == .assetsFolder ? ExportAssets(staging: staging) : nil
        self.fileExtension = fileExtension
        self.render = render
    }

    func usesAttachments(pass: Int) -> Bool { true }

    func add(_ article: ArticleSnapshot, attachments: [AttachmentFile], pass: Int) throws {
        let file = try staging.createFile(named: names.claim(title: article.title, fileExtension: fileExtension))
        let targets = output == .drawn ? nil : try AttachmentTargets(attachments, referencedBy: article.body, assets: assets)
        try render(article, attachments, targets, file)
        try file.close()
    }

    func commit() throws -> [URL] { try staging.commit() }

    func discard() { staging.discard() }
}

/// One HTML document with a table of contents: the first pass writes the contents, the second the
/// articles. Attachments go into an `assets/` folder beside the document (staged there and moved
/// into place just before the document), or into the document as data URIs with `embedsAttachments`.
final class CombinedHTMLExport: ExportWriter {
    let passes = 2
    private let file: AtomicFile
    private let assetStaging: StagingFolder?
    private let assets: ExportAssets?
    private var isInArticles = false

    init(destination: URL, replacing: Bool, title: String, embedsAttachments: Bool) throws {
        file = try AtomicFile(destination: destination, replacing: replacing)
        // A failure here leaves the atomic file to its deinit, which discards it.
        assetStaging = embedsAttachments
            ? nil : try StagingFolder(destination: destination.deletingLastPathComponent(), replacing: replacing)
        assets = assetStaging.map(ExportAssets.init)
        try file.output.write(HTMLDocument.head(title: title) + HTMLDocument.contentsStart(title: title))
    }

    func usesAttachments(pass: Int) -> Bool { pass == 1 }

    func add(_ article: ArticleSnapshot, attachments: [AttachmentFile], pass: Int) throws {
        if pass == 0 {
            try file.output.write(HTMLDocument.contentsEntry(article))
        } else {
            if !isInArticles {
                try file.output.write(HTMLDocument.contentsEnd)
                isInArticles = true
            }
            let targets = try AttachmentTargets(attachments, referencedBy: article.body, assets: assets)
            try file.output.write(targets.html(HTMLDocument.article(article)))
        }
    }

    func commit() throws -> [URL] {
        if !isInArticles { try file.output.write(HTMLDocument.contentsEnd) }
        try file.output.write(HTMLDocument.tail)
        _ = try assetStaging?.commit()
        try file.commit()
        return [file.destination]
    }

    func discard() {
        assetStaging?.discard()
        file.discard()
    }
}
