import Foundation
import Library

/// Writes one article as a PDF file: metadata, the typeset article, and its bookmarks.
enum PDFDocumentWriter {
    /// Typesets `article` with its `attachments` on `paper` pages into `file`, with the job's `fonts`.
    static func writeArticle(
        _ article: ArticleSnapshot, attachments: [AttachmentFile], paper: PaperSize, fonts: PDFFontMap, to file: OutputFile
    ) throws {
        let canvas = try PDFCanvas(paper: paper, file: file)
        canvas.setTitle(DisplayTitle.of(article.title))
        if let language = article.language { canvas.setLanguage(language) }
        let typesetter = PDFTypesetter(canvas: canvas, fonts: fonts, drawing: true)
        typesetter.typesetArticle(article, attachments: attachments, expandsBookmark: true)
        typesetter.finish()
        try canvas.finish()
    }
}

/// One PDF holding a table of contents and then every article, each from a new page. The first
/// pass lays the articles out without drawing, to learn how many pages each takes; the second
/// draws the contents, whose page numbers and links are then known, and the articles.
final class CombinedPDFExport: ExportWriter {
    let passes = 2
    private let file: AtomicFile
    private let title: String
    private let paper: PaperSize
    private let fonts = PDFFontMap()
    private let measuring: PDFTypesetter
    private var entries: [(title: String, page: Int, destination: String)] = []
    private var drawnArticles = 0
    private var measuredPages = 0
    private var drawing: (canvas: PDFCanvas, typesetter: PDFTypesetter)?

    init(destination: URL, replacing: Bool, title: String, paper: PaperSize) throws {
        file = try AtomicFile(destination: destination, replacing: replacing)
        self.title = title
        self.paper = paper
        measuring = PDFTypesetter(canvas: try PDFCanvas(paper: paper, file: nil), fonts: fonts, drawing: false)
    }

    func usesAttachments(pass: Int) -> Bool { true }

    func add(_ article: ArticleSnapshot, attachments: [AttachmentFile], pass: Int) throws {
        if pass == 0 {
            measuring.typesetArticle(article, attachments: attachments, expandsBookmark: false)
            // Pages count from the first article's; the length of the contents is added when known.
            entries.append((article.title, measuredPages + 1, "article-\(entries.count + 1)"))
            measuredPages = measuring.pageNumber
        } else {
            drawnArticles += 1
            try startDrawing().typesetter.typesetArticle(
                article, attachments: attachments, expandsBookmark: false, destination: "article-\(drawnArticles)")
        }
    }

    func commit() throws -> [URL] {
        let (canvas, typesetter) = try startDrawing()
        typesetter.finish()
        try canvas.finish()
        try file.commit()
        return [file.destination]
    }

    func discard() { file.discard() }

    /// The drawing canvas, made on first use: the contents go first, so their page count is
    /// measured before the contents are drawn with the articles' final page numbers.
    private func startDrawing() throws -> (canvas: PDFCanvas, typesetter: PDFTypesetter) {
        if let drawing { return drawing }
        let contentsMeasure = PDFTypesetter(canvas: try PDFCanvas(paper: paper, file: nil), fonts: fonts, drawing: false)
        contentsMeasure.typesetContents(title: title, entries: entries)
        let contentsPages = contentsMeasure.pageNumber
        let canvas = try PDFCanvas(paper: paper, file: file.output)
        canvas.setTitle(DisplayTitle.of(title))
        let typesetter = PDFTypesetter(canvas: canvas, fonts: fonts, drawing: true)
        typesetter.typesetContents(title: title, entries: entries.map { ($0.title, $0.page + contentsPages, $0.destination) })
        drawing = (canvas, typesetter)
        return (canvas, typesetter)
    }
}
