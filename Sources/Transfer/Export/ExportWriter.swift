import Foundation
import Library

/// How one export format turns the job's articles into files. The job walks the source `passes`
/// times, hands every article to ``add(_:pass:)``, and then either commits or discards.
protocol ExportWriter: AnyObject {
    /// How many times the job walks the articles.
    var passes: Int { get }
    /// Takes the next article of pass `pass` (from 0).
    func add(_ article: ArticleSnapshot, pass: Int) throws
    /// Finishes the output and moves it into place; returns the files written.
    func commit() throws -> [URL]
    /// Removes everything the writer wrote so far; the destination is left as it was.
    func discard()
}

/// Writes one file per article into a ``StagingFolder``, named after the article's title
/// (``FileNameSet``), and renames them all into the destination folder on commit.
final class FilePerArticleExport: ExportWriter {
    let passes = 1
    private let staging: StagingFolder
    private let fileExtension: String
    private let render: (ArticleSnapshot, OutputFile) throws -> Void
    private var names = FileNameSet()

    init(
        destination: URL, replacing: Bool, fileExtension: String,
        render: @escaping (ArticleSnapshot, OutputFile) throws -> Void
    ) throws {
        staging = try StagingFolder(destination: destination, replacing: replacing)
        self.fileExtension = fileExtension
        self.render = render
    }

    func add(_ article: ArticleSnapshot, pass: Int) throws {
        let file = try staging.createFile(named: names.claim(title: article.title, fileExtension: fileExtension))
        try render(article, file)
        try file.close()
    }

    func commit() throws -> [URL] { try staging.commit() }

    func discard() { staging.discard() }
}

/// One HTML document with a table of contents: the first pass writes the contents, the second the
/// articles.
final class CombinedHTMLExport: ExportWriter {
    let passes = 2
    private let file: AtomicFile
    private var isInArticles = false

    init(destination: URL, replacing: Bool, title: String) throws {
        file = try AtomicFile(destination: destination, replacing: replacing)
        try file.output.write(HTMLDocument.head(title: title) + HTMLDocument.contentsStart(title: title))
    }

    func add(_ article: ArticleSnapshot, pass: Int) throws {
        if pass == 0 {
            try file.output.write(HTMLDocument.contentsEntry(article))
        } else {
            if !isInArticles {
                try file.output.write(HTMLDocument.contentsEnd)
                isInArticles = true
            }
            try file.output.write(HTMLDocument.article(article))
        }
    }

    func commit() throws -> [URL] {
        if !isInArticles { try file.output.write(HTMLDocument.contentsEnd) }
        try file.output.write(HTMLDocument.tail)
        try file.commit()
        return [file.destination]
    }

    func discard() { file.discard() }
}
