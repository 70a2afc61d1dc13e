import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

@Suite struct FileNameTests {
    @Test func hostileTitlesGiveSafeDistinctNames() {
        var names = FileNameSet()
        var claimed: [String] = []
        for title in SampleArticles.hostileTitles + ["Notes", "notes", "NOTES", "Notes"] {
            let name = names.claim(title: title, fileExtension: "md")
            claimed.append(name)
            #expect(!name.contains("/") && !name.contains("\\") && !name.contains("\0"))
            #expect(!name.hasPrefix(".") && !name.hasPrefix("-") && !name.hasPrefix(" "))
            #expect(name.utf8.count <= 255)
            #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .control })
            #expect(!name.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            #expect(name == name.precomposedStringWithCanonicalMapping)
        }
        #expect(Set(claimed.map { $0.lowercased() }).count == claimed.count)
        #expect(FileName.stem(for: "../../etc/x") == "etc-x")
        #expect(FileName.stem(for: "") == "Untitled")
        #expect(FileName.stem(for: " . .. ") == "Untitled")
        #expect(FileName.stem(for: "CON") == "CON_")
        #expect(FileName.stem(for: "\u{301}\u{20DD}mark").unicodeScalars.elementsEqual("mark".unicodeScalars))
        #expect(FileName.stem(for: "Trojan \u{202E}gpj.exe") == "Trojan gpj.exe")
        #expect(FileName.stem(for: "Line\none\ttwo") == "Line one two")
        #expect(FileName.stem(for: "Cafe\u{301}").unicodeScalars.count == 4)
        #expect(FileName.stem(for: "a/b\\c:d*e?f\"g<h>i|j") == "a-b-c-defghi-j")
        #expect(claimed.suffix(4) == ["Notes.md", "notes 2.md", "NOTES 3.md", "Notes 4.md"])
    }

    @Test func longTitlesAreCutAtACharacterBoundary() {
        let emoji = String(repeating: "👩🏽‍💻", count: 100)
        let stem = FileName.stem(for: emoji)
        #expect(stem.utf8.count <= FileName.maximumStemBytes)
        #expect(stem.count == stem.utf8.count / "👩🏽‍💻".utf8.count)
        #expect(Set(stem) == ["👩🏽‍💻"])
        let long = FileName.stem(for: String(repeating: "abc ", count: 100))
        #expect(long.utf8.count <= FileName.maximumStemBytes && !long.hasSuffix(" "))
    }
}

@Suite struct ExportOutputTests {
    @Test func hostileTitlesStayInsideTheDestination() async throws {
        let root = try TemporaryFolder()
        let destination = root.appending("out")
        let articles = SampleArticles.hostileTitles.map { SampleArticles.article($0) }
        for format in [ExportFormat.markdown, .html(.filePerArticle)] {
            let result = try await ExportJob(format: format, destination: destination, overwritesExisting: true)
                .run(from: ArticleArraySource(articles))
            #expect(result.files.count == articles.count)
            #expect(Set(result.files.map(\.lastPathComponent)).count == articles.count)
        }
        // Only the two sets of files, nothing elsewhere and no staging folder left behind.
        let entries = try root.contents()
        #expect(entries.count == 1 + 2 * articles.count)
        // Bytes, not Characters: a name may begin with a combining mark that would fuse with the "/".
        #expect(entries.allSatisfy { $0 == "out" || $0.utf8.starts(with: "out/".utf8) && !$0.utf8.dropFirst(4).contains(UInt8(ascii: "/")) })
        #expect(!entries.contains { $0.contains(".quire-export-") })
    }

    @Test func existingFilesAreKeptUnlessOverwritingIsAllowed() async throws {
        let folder = try TemporaryFolder()
        let article = SampleArticles.article("Kept", body: "new text\n")
        try "precious".write(to: folder.appending("Kept.md"), atomically: true, encoding: .utf8)
        let other = SampleArticles.article("Other")
        await #expect(throws: ExportError.destinationExists(path: folder.appending("Kept.md").path)) {
            try await ExportJob(format: .markdown, destination: folder.url).run(from: ArticleArraySource([other, article]))
        }
        #expect(try String(contentsOf: folder.appending("Kept.md"), encoding: .utf8) == "precious")
        #expect(try folder.contents() == ["Kept.md"])  // "Other.md" was not left behind either

        try await ExportJob(format: .markdown, destination: folder.url, overwritesExisting: true)
            .run(from: ArticleArraySource([other, article]))
        #expect(try String(contentsOf: folder.appending("Kept.md"), encoding: .utf8).hasSuffix("---\nnew text\n"))
        #expect(try folder.contents() == ["Kept.md", "Other.md"])

        let archive = folder.appending("library.json")
        try "old archive".write(to: archive, atomically: true, encoding: .utf8)
        await #expect(throws: ExportError.destinationExists(path: archive.path)) {
            try await ExportJob(format: .jsonArchive(.init(schemaVersion: 1)), destination: archive).run(from: ArticleArraySource([article]))
        }
        #expect(try String(contentsOf: archive, encoding: .utf8) == "old archive")
        try await ExportJob(format: .jsonArchive(.init(schemaVersion: 1)), destination: archive, overwritesExisting: true)
            .run(from: ArticleArraySource([article]))
        #expect(try LibraryArchive.read(from: Data(contentsOf: archive), path: archive.path).articles.count == 1)
        #expect(try folder.contents() == ["Kept.md", "Other.md", "library.json"])
    }

    @Test func unusableDestinationsFailBeforeWriting() async throws {
        let folder = try TemporaryFolder()
        try "a file".write(to: folder.appending("file"), atomically: true, encoding: .utf8)
        await #expect(throws: ExportError.self) {
            try await ExportJob(format: .markdown, destination: folder.appending("file")).run(from: ArticleArraySource([]))
        }
        await #expect(throws: ExportError.self) {
            try await ExportJob(format: .html(.combined(title: "x")), destination: folder.appending("missing/x.html"))
                .run(from: ArticleArraySource([]))
        }
        await #expect(throws: ExportError.self) {
            try await ExportJob(format: .pdf(.combined(title: "x"), paper: .a4), destination: folder.url)
                .run(from: ArticleArraySource([]))
        }
        #expect(try folder.contents() == ["file"])
    }

    @Test func aFailingSourceLeavesNothingBehind() async throws {
        let folder = try TemporaryFolder()
        struct Broken: Error {}
        struct FailingSource: ArticleSource {
            func articleCount() async throws -> Int { 10 }
            func articles(in range: Range<Int>) async throws -> [ArticleSnapshot] {
                if range.lowerBound >= 4 { throw Broken() }
                return range.map { SampleArticles.article("Article \($0)") }
            }
        }
        await #expect(throws: Broken.self) {
            try await ExportJob(format: .markdown, destination: folder.appending("new folder"), batchSize: 2).run(from: FailingSource())
        }
        await #expect(throws: Broken.self) {
            try await ExportJob(format: .pdf(.combined(title: "x"), paper: .a4), destination: folder.appending("x.pdf"), batchSize: 2)
                .run(from: FailingSource())
        }
        // The folder the export created is gone again, and no temporary file remains.
        #expect(try folder.contents().isEmpty)
    }
}
