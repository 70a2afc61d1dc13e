import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Front matter read by libyaml: the shapes Quire maps, and hostile YAML, which is refused with a
/// reason and a line (the file is reported and stays as it was) or, under keys Quire does not
/// know, skipped with the body imported whole.
@Suite struct FrontMatterTests {
    private let url = URL(fileURLWithPath: "/tmp/post.md")

    private func read(_ text: String) throws(ImportError) -> ImportedArticle {
        try MarkdownFileReader.article(from: Data(text.utf8), url: url, folder: nil, modified: Date(timeIntervalSince1970: 7))
    }

    /// The error reading `text` gives, or `nil` if it imports.
    private func failure(_ text: String) -> ImportError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func malformedYAMLIsRefusedWithLibyamlsReasonAndLine() throws {
        let unclosed = try #require(failure("---\ntitle: Fine\ntags: [a, b\nstatus: draft\n---\nBody.\n"))
        guard case .frontMatter(path: url.path, let line, let reason) = unclosed else {
            Issue.record("expected a front matter error, got \(unclosed)")
            return
        }
        #expect((3...4).contains(line), "the line of the unclosed sequence or the one after: \(line)")
        #expect(reason.contains("flow sequence"), "\(reason)")
        #expect(failure("---\ntitle: \"unterminated\n---\nbody\n").map { "\($0)" }?.contains("quoted scalar") == true)
        #expect(failure("---\n just: indented\nkey: value\n---\n") != nil)
        #expect(failure("---\nnot a mapping\n---\nBody.\n") == .frontMatter(path: url.path, line: 2, reason: "expected 'key: value' lines"))
        // A raw control character is not YAML; the exported form escapes it.
        let control = try #require(failure("---\ntitle: a\u{1}b\n---\n"))
        #expect("\(control)".contains("control characters are not allowed"), "\(control)")
    }

    @Test func deepNestingIsRefusedBeforeItIsWalked() throws {
        let depth = 100_000
        let deep = "---\nlayout: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n---\nBody.\n"
        #expect(failure(deep) == .frontMatter(path: url.path, line: 2, reason: "nested more than 64 levels deep"))
        // Nesting within the limit under an unknown key is skipped.
        let nested = "---\ntitle: Kept\nextra: " + String(repeating: "[", count: 60) + "x" + String(repeating: "]", count: 60) + "\n---\nBody.\n"
        let article = try read(nested).article
        #expect(article.title == "Kept")
        #expect(article.body == "Body.\n")
    }

    @Test func aliasesAreNeverExpanded() throws {
        // A "billion laughs": expanded, `i` would be 10^9 copies of "lol".
        var bomb = "---\ntitle: Laughs\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (name, previous) in zip("bcdefghi", "abcdefgh") {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ",") + "]\n"
        }
        bomb += "---\nBody.\n"
        let article = try read(bomb).article
        #expect(article.title == "Laughs")
        #expect(article.body == "Body.\n")
        // A known key that is an alias, or lists one, is refused by name.
        #expect(failure("---\nx: &t Title\ntitle: *t\n---\n")
            == .invalidField(path: url.path, line: 3, key: "title", reason: "an alias is not supported here"))
        #expect(failure("---\nx: &t one\ntags: [*t, two]\n---\n")
            == .invalidField(path: url.path, line: 3, key: "tags", reason: "an alias is not supported here"))
    }

    @Test func aHugeScalarIsReadWhole() throws {
        let title = String(repeating: "Long title ", count: 50_000)
        let notes = String(repeating: "n", count: 4 << 20)
        let body = "# Heading\n\n" + String(repeating: "Prose. ", count: 1_000) + "\n"
        let article = try read("---\ntitle: \"\(title)\"\nnotes: \(notes)\n---\n" + body).article
        #expect(article.title == title)
        #expect(article.body.utf8.elementsEqual(body.utf8))
    }

    @Test func textThatIsNotUTF8IsRefused() throws {
        var bytes = Array("---\ntitle: caf".utf8)
        bytes += [0xE9]  // Latin-1 "é".
        bytes += Array("\n---\nBody.\n".utf8)
        #expect(throws: ImportError.notUTF8(path: url.path)) {
            try MarkdownFileReader.article(from: Data(bytes), url: url, folder: nil, modified: Date())
        }
    }

    @Test func badFrontMatterFailsItsFileAloneAndLeavesItAsItWas() async throws {
        let folder = try TemporaryFolder()
        let bad = "---\ntitle: [unclosed\n---\nThe writer's text.\n"
        try bad.write(to: folder.appending("bad.md"), atomically: true, encoding: .utf8)
        try "---\ntitle: Good\n---\nFine.\n".write(to: folder.appending("good.md"), atomically: true, encoding: .utf8)
        let scan = try await ImportScan.read([folder.url])
        #expect(scan.articles.map(\.article.title) == ["Good"])
        let failure = try #require(scan.failures.first)
        #expect(scan.failures.count == 1)
        #expect(failure.path.hasSuffix("bad.md"))
        #expect("\(failure)".contains(": front matter: "), "\(failure)")
        #expect(try String(contentsOf: folder.appending("bad.md"), encoding: .utf8) == bad)
    }

    @Test func shapesOutsideWhatQuireMapsAreNamed() {
        func reason(_ yaml: String) -> String? {
            guard case .invalidField(_, _, "title", let reason) = failure("---\n\(yaml)\n---\n") else { return nil }
            return reason
        }
        #expect(reason("title: >\n  folded") == "a block scalar is not supported here")
        #expect(reason("title: {a: b}") == "a flow mapping is not supported here")
        #expect(reason("title:\n  a: b") == "a nested mapping is not supported here")
        #expect(reason("title: [a]") == "expected a single value, found a list")
        #expect(reason("title: plain\n  continued") == "a value over several lines is not supported here")
    }

    @Test func yamlSpellingsOfTheSameValuesReadAlike() throws {
        let article = try read("""
            ---
            "title": 'It''s \\ here'   # a comment
            tags: [one, "two, three", ~]
            folder: "Caf\\u00e9"
            favorite: on
            server_revision: null
            ---

            """).article
        #expect(article.title == #"It's \ here"#)
        #expect(article.tags == ["one", "two, three"])
        #expect(article.folder == "Café")
        #expect(article.isFavorite)
    }
}
