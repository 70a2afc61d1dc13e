import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

@Suite struct PDFExportTests {
    @Test func singleArticlePDFHasTextPageNumbersAndBookmarks() async throws {
        let folder = try TemporaryFolder()
        let article = SampleArticles.article("PDF Sample Article", body: SampleArticles.richBody, tags: ["alpha", "beta"])
        let job = ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url)
        let result = try await job.run(from: ArticleArraySource([article]))
        let file = try #require(result.files.first)
        #expect(file.lastPathComponent == "PDF Sample Article.pdf")

        // Lines wrap where the typesetter decides; compare with white space collapsed.
        let text = try Tool.run("pdftotext", [file.path, "-"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["PDF Sample Article", "Introduction", "emphasis", "strikethrough", "inline code", "nested item",
                         "A block quote with", "let answer = 42", "apples", "pears", "Final paragraph.", "alpha, beta"] {
            #expect(text.contains(expected), "missing \(expected)")
        }
        #expect(!text.contains("raw html must not appear"))
        let info = try Tool.run("pdfinfo", [file.path])
        #expect(info.contains("Pages:           1"))
        #expect(info.contains("Title:           PDF Sample Article"))
        let outline = try Tool.run("pdftohtml", ["-xml", "-stdout", "-i", "-q", file.path])
        #expect(outline.contains("<outline>"))
        #expect(outline.contains(">PDF Sample Article</item>") || outline.contains(">PDF Sample Article<"))
        #expect(outline.contains("Introduction"))
        #expect(outline.contains("Lists"))
    }

    @Test func chineseAndRightToLeftTextComeOutOfThePDF() async throws {
        let folder = try TemporaryFolder()
        let article = SampleArticles.article(
            "离线同步与冲突", body: "本文讨论离线优先的同步。\n\nשלום עולם, مرحبا بالعالم\n")
        let result = try await ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url)
            .run(from: ArticleArraySource([article]))
        let text = try Tool.run("pdftotext", [try #require(result.files.first).path, "-"])
        #expect(text.contains("离线同步与冲突"))
        #expect(text.contains("本文讨论离线优先的同步。"))
        #expect(text.contains("שלום") || text.contains("םולש"))
    }

    /// Every script a writer may mix, with Debian's Noto fonts (meson-helpers/packages.sh): the
    /// CJK text set in Noto Sans CJK, Cyrillic and Arabic kept as text, and the emoji drawn in
    /// colour (cairo paints a colour glyph as an image, so it is looked for on the rendered page:
    /// without a colour emoji font it came out as an empty black box).
    @Test func mixedScriptsAndColourEmojiComeOutOfThePDF() async throws {
        let folder = try TemporaryFolder()
        let article = SampleArticles.article("Grüße 😀 日本", body: "Hello 😀 world. 日本語の文章。 Привет, мир! مرحبا 🎉\n")
        let result = try await ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url)
            .run(from: ArticleArraySource([article]))
        let file = try #require(result.files.first)
        let fonts = try Tool.run("pdffonts", [file.path])
        #expect(fonts.contains("NotoSansCJK"), "the CJK text is set in Noto Sans CJK: \(fonts)")
        let text = try Tool.run("pdftotext", [file.path, "-"])
        for expected in ["Grüße", "日本語の文章。", "Привет, мир!", "مرحبا"] { #expect(text.contains(expected), "missing \(expected)") }

        _ = try Tool.run("pdftoppm", ["-r", "40", "-f", "1", "-l", "1", file.path, folder.appending("page").path])
        let page = try Data(contentsOf: folder.appending("page-1.ppm"))
        #expect(Self.colouredPixels(inPPM: page) > 20, "the emoji are drawn in colour")
    }

    /// How many pixels of a binary PPM (P6, 8 bits) are clearly coloured, not grey: text and rules
    /// are black and grey, only a colour emoji is yellow or red.
    private static func colouredPixels(inPPM data: Data) -> Int {
        let bytes = [UInt8](data)
        // The header: "P6", width, height, maximum, each followed by white space.
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var field = ""
            while index < bytes.count, bytes[index] != 0x20, bytes[index] != 0x0A { field.append(Character(UnicodeScalar(bytes[index]))); index += 1 }
            fields.append(field)
        }
        index += 1
        var coloured = 0
        while index + 2 < bytes.count {
            let (red, green, blue) = (Int(bytes[index]), Int(bytes[index + 1]), Int(bytes[index + 2]))
            if max(red, green, blue) - min(red, green, blue) > 80 { coloured += 1 }
            index += 3
        }
        return fields.first == "P6" ? coloured : 0
    }

    @Test func longArticleBreaksIntoNumberedPages() async throws {
        let folder = try TemporaryFolder()
        let paragraphs = (1...120).map { "Paragraph \($0) of the long article, which goes on for a while so that it wraps onto a second line of text." }
        let article = SampleArticles.article("Long", body: paragraphs.joined(separator: "\n\n"))
        let result = try await ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url)
            .run(from: ArticleArraySource([article]))
        let file = try #require(result.files.first)
        let pages = try pageCount(file)
        #expect(pages > 3)
        // Every page carries its number, and each paragraph appears exactly once.
        for page in 1...pages {
            let text = try Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", "-layout", file.path, "-"])
            let lastLine = text.split(whereSeparator: \.isNewline).last { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            #expect(lastLine?.trimmingCharacters(in: .whitespacesAndNewlines) == "\(page)")
        }
        let all = try Tool.run("pdftotext", [file.path, "-"])
        for number in [1, 60, 120] { #expect(all.contains("Paragraph \(number) of")) }
    }

    @Test func combinedPDFHasContentsWithCorrectPagesAndBookmarks() async throws {
        let folder = try TemporaryFolder()
        let long = (1...80).map { "Line \($0) of a long article body that fills pages." }.joined(separator: "\n\n")
        let articles = [
            SampleArticles.article("First Article", body: "Short body one.\n\n## Section One\n\nText."),
            SampleArticles.article("Second Article", body: long),
            SampleArticles.article("Third Article", body: "Short body three.\n"),
        ]
        let destination = folder.appending("Library.pdf")
        let job = ExportJob(format: .pdf(.combined(title: "My Library"), paper: .letter), destination: destination)
        let recorder = ProgressRecorder()
        let result = try await job.run(from: ArticleArraySource(articles)) { recorder.record($0) }
        #expect(result.files == [destination.standardizedFileURL])
        #expect(recorder.values.last == ExportProgress(completed: 6, total: 6))

        let info = try Tool.run("pdfinfo", [destination.path])
        #expect(info.contains("612 x 792 pts (letter)"))
        let pages = try pageCount(destination)
        #expect(pages >= 5)
        // The contents page lists each article with the page it starts on.
        let contents = try Tool.run("pdftotext", ["-f", "1", "-l", "1", "-layout", destination.path, "-"])
        #expect(contents.contains("My Library"))
        var starts: [Int] = []
        for title in ["First Article", "Second Article", "Third Article"] {
            let line = try #require(contents.split(separator: "\n").first { $0.contains(title) })
            let number = try #require(Int(line.split(separator: " ").last ?? ""))
            let page = try Tool.run("pdftotext", ["-f", "\(number)", "-l", "\(number)", destination.path, "-"])
            #expect(page.hasPrefix(title), "\(title) should start page \(number)")
            starts.append(number)
        }
        #expect(starts[0] == 2 && starts[2] == pages)
        // Each contents entry links to a named destination on its article's first page.
        let destinations = try Tool.run("pdfinfo", ["-dests", destination.path])
        for (index, start) in starts.enumerated() {
            #expect(destinations.split(separator: "\n").contains {
                $0.hasSuffix("\"article-\(index + 1)\"") && $0.trimmingCharacters(in: .whitespaces).hasPrefix("\(start) ")
            })
        }
        let outline = try Tool.run("pdftohtml", ["-xml", "-stdout", "-i", "-q", destination.path])
        for title in ["Contents", "First Article", "Second Article", "Third Article", "Section One"] {
            #expect(outline.contains(title))
        }
    }

    @Test func hostileTitlesTypesetWithoutHarm() async throws {
        let folder = try TemporaryFolder()
        let articles = SampleArticles.hostileTitles.map { SampleArticles.article($0, body: "Body of \($0.count)") }
        let result = try await ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url)
            .run(from: ArticleArraySource(articles))
        #expect(result.files.count == articles.count)
        for file in result.files {
            #expect(file.deletingLastPathComponent().standardizedFileURL == folder.url.standardizedFileURL)
            #expect(try pageCount(file) == 1)
        }
    }

    @Test func paperSizeFollowsTheLocale() {
        #expect(PaperSize.forLocale(named: "C.UTF-8") == .a4)
        #expect(PaperSize.fromLocale(environment: ["LANG": "en_US.UTF-8"]) == .letter)
        #expect(PaperSize.fromLocale(environment: ["LC_PAPER": "en_CA.UTF-8", "LANG": "de_DE.UTF-8"]) == .letter)
        #expect(PaperSize.fromLocale(environment: ["LC_ALL": "de_DE.UTF-8", "LC_PAPER": "en_US.UTF-8"]) == .a4)
        #expect(PaperSize.fromLocale(environment: ["LANG": "fr_FR.UTF-8"]) == .a4)
        #expect(PaperSize.fromLocale(environment: [:]) == .a4)
    }

    private func pageCount(_ file: URL) throws -> Int {
        let info = try Tool.run("pdfinfo", [file.path])
        let line = try #require(info.split(separator: "\n").first { $0.hasPrefix("Pages:") })
        return try #require(Int(line.split(separator: " ").last ?? ""))
    }
}

/// Collects progress reports from a job's callback.
final class ProgressRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [ExportProgress] = []
    var values: [ExportProgress] { lock.withLock { recorded } }
    func record(_ progress: ExportProgress) { lock.withLock { recorded.append(progress) } }
}
