import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

@Suite struct HTMLRenderingTests {
    private struct SpecExample: Decodable {
        let markdown: String
        let example: Int
        let section: String
    }

    /// The command renders as Quire does but for footnotes, which Debian 12's `cmark-gfm` cannot
    /// turn on (no spec example uses them; ``footnotesRenderAsLinkedNotesAtTheEnd()`` checks them).
    private static let extensionArguments = MarkdownDocument.extensionNames.flatMap { ["-e", $0] }

    /// GFM extension cases the CommonMark spec does not cover.
    private static let extensionExamples = [
        "| a | b |\n|:--|--:|\n| `x` | ~~y~~ |\n| 1 |\n",
        "~~struck~~ and ~single~ tilde\n",
        "Visit www.example.com, https://example.org/path?q=1. or mail@example.com!\n",
        "- [ ] open\n- [x] done\n  - [X] nested done\n",
        "<script>alert(1)</script>\n\n<b onclick=x>bold</b> [js](javascript:alert(1)) ![img](data:text/html,x)\n",
        "| not | a table\nbecause no delimiter row\n",
    ]

    @Test func specExamplesRenderAsCmarkGFMRendersThem() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/commonmark-spec-0.31.2.json")
        let examples = try JSONDecoder().decode([SpecExample].self, from: Data(contentsOf: fixture))
        #expect(examples.count == 652)
        var mismatches: [Int] = []
        for example in examples {
            let expected = try Tool.run("cmark-gfm", Self.extensionArguments, input: example.markdown)
            if MarkdownHTML.fragment(example.markdown) != expected { mismatches.append(example.example) }
        }
        #expect(mismatches.isEmpty, "examples rendered differently: \(mismatches)")
        for markdown in Self.extensionExamples {
            #expect(MarkdownHTML.fragment(markdown) == (try Tool.run("cmark-gfm", Self.extensionArguments, input: markdown)))
        }
    }

    @Test func footnotesRenderAsLinkedNotesAtTheEnd() {
        let html = MarkdownHTML.fragment("A claim[^1], another[^note].\n\n[^note]: A *second* note.\n[^1]: The source.\n")
        #expect(html == """
            <p>A claim<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote-ref>1</a></sup>, \
            another<sup class="footnote-ref"><a href="#fn-note" id="fnref-note" data-footnote-ref>2</a></sup>.</p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-1">
            <p>The source. <a href="#fnref-1" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            <li id="fn-note">
            <p>A <em>second</em> note. <a href="#fnref-note" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }

    @Test func rawHTMLAndDangerousLinksAreSuppressed() {
        let html = MarkdownHTML.fragment("<script>alert(1)</script>\n\n<b onclick=x>bold</b> [js](javascript:alert(1))\n")
        #expect(!html.contains("<script"))
        #expect(!html.contains("onclick"))
        #expect(!html.contains("javascript:"))
        #expect(html.contains("<!-- raw HTML omitted -->"))
    }

    @Test func articleTextIsEscapedWhereverItLands() async throws {
        let folder = try TemporaryFolder()
        let hostile = SampleArticles.article(
            "<script>alert('t')</script> & \"quotes\"\u{1}", body: "<script>alert('b')</script>\n\n# Heading\n",
            folder: "<img src=x onerror=alert(1)>", tags: ["\"><script>", "a&b"])
        let result = try await ExportJob(format: .html(.filePerArticle), destination: folder.url)
            .run(from: ArticleArraySource([hostile]))
        let page = try String(contentsOf: try #require(result.files.first), encoding: .utf8)
        #expect(!page.lowercased().contains("<script"))
        #expect(!page.contains("<img"))
        #expect(page.contains("<title>&lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt; &amp; &quot;quotes&quot; </title>"))
        #expect(page.contains("<span class=\"tag\">&quot;&gt;&lt;script&gt;</span>"))
        #expect(page.contains("Content-Security-Policy"))
        #expect(page.contains("<h1>Heading</h1>"))

        let combined = folder.appending("all.html")
        try await ExportJob(format: .html(.combined(title: "</title><script>x</script>")), destination: combined)
            .run(from: ArticleArraySource([hostile, SampleArticles.article("Second")]))
        let document = try String(contentsOf: combined, encoding: .utf8)
        #expect(!document.lowercased().contains("<script"))
        #expect(document.contains("<title>&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;</title>"))
    }

    @Test func combinedDocumentLinksItsContentsToEveryArticle() async throws {
        let folder = try TemporaryFolder()
        let articles = (1...5).map { SampleArticles.article("Article \($0)", body: "Text of article \($0).\n") }
        let destination = folder.appending("combined.html")
        let recorder = ProgressRecorder()
        try await ExportJob(format: .html(.combined(title: "Collected")), destination: destination, batchSize: 2)
            .run(from: ArticleArraySource(articles)) { recorder.record($0) }
        #expect(recorder.values.map(\.completed) == Array(0...10))
        let document = try String(contentsOf: destination, encoding: .utf8)
        var position = document.startIndex
        for article in articles {
            let anchor = HTMLDocument.anchor(for: article)
            #expect(document.contains("<li><a href=\"#\(anchor)\" dir=\"auto\">\(article.title)</a></li>"))
            // Articles follow the contents, in order.
            let target = try #require(document.range(of: "<article id=\"\(anchor)\"", range: position..<document.endIndex))
            position = target.upperBound
            #expect(document.contains("<p>\(article.body.dropLast())</p>"))
        }
        #expect(document.hasSuffix("</body>\n</html>\n"))
    }

    @Test func styleSheetFollowsTheColourSchemeOnScreenAndPrintsPlainly() {
        let css = ExportStyleSheet.css
        #expect(css.contains("@media screen and (prefers-color-scheme: dark)"))
        #expect(css.contains("@media print"))
        #expect(css.contains("page-break-before: always"))
    }
}
