import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// The article's language (schema V4) through the library: new and edited articles, the outbox
/// payload, merging, export (Markdown, HTML, PDF, archive) and import, and the personal dictionary.
@Suite struct ArticleLanguageTests {
    @Test func aNewArticleTakesItsContentsLanguageOrThePreferredOne() async throws {
        let store = try TemporaryLibrary()
        let german = try await store.library.createArticle(ArticleContent(title: "Brief", body: "Hallo\n", language: "de_DE"))
        #expect(german.language == "de_DE")
        let unstated = try await store.library.createArticle(ArticleContent(title: "Note", body: "Hello\n"))
        #expect(unstated.language == ArticleLanguage.preferred)
        let edited = try await store.library.editArticle(unstated.id, language: "fr")
        #expect(edited.language == "fr")
        #expect(try await store.library.article(unstated.id).language == "fr")
        // The edit is a local change: its outbox operation pushes the language.
        let payload = try store.inspect { context in
            try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == unstated.id)).first?.payload
        }
        #expect(payload?.language == "fr")
    }

    @Test func contentWithoutALanguageKeepsTheArticles() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Brief", body: "Hallo\n", language: "de_DE"))
        // An older client's payload has no language: the article keeps its own.
        let saved = try await store.library.replaceContent(of: article.id, with: ArticleContent(ArticlePayload(title: "Brief", body: "Hallo Welt\n")))
        #expect(saved.language == "de_DE")
        #expect(saved.body == "Hallo Welt\n")
    }

    @Test func languagesMergeWithoutConflict() {
        let base = ArticleContent(title: "T", body: "a\n", language: "en_US")
        let theirs = ArticleContent(title: "T", body: "a\n", language: "de_DE")
        #expect(ArticleMerge(base: base, mine: base, theirs: theirs).mergedContent?.language == "de_DE")
        let mine = ArticleContent(title: "T", body: "a\n", language: "fr")
        let merge = ArticleMerge(base: base, mine: mine, theirs: theirs)
        #expect(merge.isClean && merge.mergedContent?.language == "fr", "two different changes keep mine")
    }

    @Test func payloadsCarryTheLanguageAndOldOnesDecodeWithout() throws {
        let payload = ArticleContent(title: "T", body: "b", language: "de_DE").payload
        let json = try JSONEncoder().encode(payload)
        #expect(String(decoding: json, as: UTF8.self).contains("\"language\":\"de_DE\""))
        #expect(try JSONDecoder().decode(ArticlePayload.self, from: json).language == "de_DE")
        let old = try JSONDecoder().decode(ArticlePayload.self, from: Data(#"{"title":"T","body":"b"}"#.utf8))
        #expect(old.language == nil)
        #expect(ArticlePayload(title: "T", body: "b", language: String(repeating: "x", count: 65)).violation()?.field == "language")
    }

    @Test func exportWritesTheLanguageAndImportReadsItBack() async throws {
        let source = try TemporaryLibrary()
        let german = try await source.library.createArticle(ArticleContent(title: "Brief", body: "# Hallo\n\nDie Straße.\n", language: "de_DE"))
        let french = try await source.library.createArticle(ArticleContent(title: "Lettre", body: "Bonjour\n", language: "fr"))

        let markdown = source.folder.appending("markdown")
        try await source.library.export(.selected([german.id, french.id]), with: ExportJob(format: .markdown, destination: markdown))
        let files = try FileManager.default.contentsOfDirectory(atPath: markdown.path).filter { $0.hasSuffix(".md") }
        let texts = try files.map { try String(contentsOfFile: markdown.appendingPathComponent($0).path, encoding: .utf8) }
        #expect(texts.contains { $0.contains("\nlang: \"de-DE\"\n") } && texts.contains { $0.contains("\nlang: \"fr\"\n") })

        let html = source.folder.appending("brief.html")
        try await source.library.export(.selected([german.id]), with: ExportJob(format: .html(.filePerArticle), destination: html))
        let page = try String(contentsOfFile: try Self.onlyFile(at: html, suffix: ".html").path, encoding: .utf8)
        #expect(page.contains("<html lang=\"de-DE\">"))
        #expect(page.contains("lang=\"de-DE\" dir=\"auto\""))

        let pdf = source.folder.appending("brief.pdf")
        try await source.library.export(.selected([german.id]), with: ExportJob(format: .pdf(.filePerArticle), destination: pdf))
        let info = try Tool.run("pdfinfo", [try Self.onlyFile(at: pdf, suffix: ".pdf").path])
        #expect(info.contains("lang:de-DE"), "\(info)")

        // Markdown and the JSON archive back into new libraries keep the languages.
        let archive = source.folder.appending("library.json")
        let options = try await source.library.archiveOptions()
        try await source.library.export(.selected([german.id, french.id]), with: ExportJob(format: .jsonArchive(options), destination: archive))
        for input in [markdown, archive] {
            let target = try TemporaryLibrary()
            let scan = try await ImportScan.read([input])
            #expect(scan.failures.isEmpty, "\(scan.failures)")
            try await target.library.apply(ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))
            #expect(try await target.library.article(german.id).language == "de_DE")
            #expect(try await target.library.article(french.id).language == "fr")
        }
    }

    @Test func aFileWithoutLangGetsThePreferredLanguage() async throws {
        let store = try TemporaryLibrary()
        let file = store.folder.appending("plain.md")
        try "---\ntitle: Plain\n---\nText\n".write(to: file, atomically: true, encoding: .utf8)
        let scan = try await ImportScan.read([file])
        #expect(scan.failures.isEmpty)
        try await store.library.apply(ImportPlan(scan: scan, library: try await store.library.importContents(for: scan), onExisting: .skip))
        let imported = try await store.library.articles(matching: ArticleQuery())
        #expect(try await store.library.article(try #require(imported.first).id).language == ArticleLanguage.preferred)
    }

    @Test func thePersonalDictionaryPersistsPerLanguage() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        do {
            let library = try Library(url: url)
            try await library.addPersonalWord("Quirelike", language: "en_US")
            try await library.addPersonalWord("Quirelike", language: "en_US")
            try await library.addPersonalWord("Schreibkram", language: "de_DE")
            library.close()
        }
        let reopened = try await Library.open(at: url)
        #expect(try await reopened.personalWords() == ["en_US": ["Quirelike"], "de_DE": ["Schreibkram"]])
    }

    @Test func thePersonalDictionaryTravelsInTheJSONArchive() async throws {
        let source = try TemporaryLibrary()
        _ = try await source.library.createArticle(ArticleContent(title: "Brief", body: "Hallo\n", language: "de_DE"))
        try await source.library.addPersonalWord("Quirelike", language: "en_US")
        try await source.library.addPersonalWord("Schreibkram", language: "de_DE")
        let archive = source.folder.appending("library.json")
        try await source.library.export(.library, with: ExportJob(format: .jsonArchive(try await source.library.archiveOptions()), destination: archive))
        let text = try String(contentsOf: archive, encoding: .utf8)
        #expect(text.contains(#""personalWords":{"de_DE":["Schreibkram"],"en_US":["Quirelike"]}"#), "\(text)")

        // Into a library that has one of the words and one of its own: the words join, none twice.
        let target = try TemporaryLibrary()
        try await target.library.addPersonalWord("Quirelike", language: "en_US")
        try await target.library.addPersonalWord("Mots", language: "fr")
        let scan = try await ImportScan.read([archive])
        #expect(scan.failures.isEmpty, "\(scan.failures)")
        try await target.library.apply(ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))
        #expect(try await target.library.personalWords() == ["en_US": ["Quirelike"], "de_DE": ["Schreibkram"], "fr": ["Mots"]])

        // An archive from before the dictionary (no key) imports its articles and adds no word.
        let older = source.folder.appending("older.json")
        try text.replacingOccurrences(of: #","personalWords":{"de_DE":["Schreibkram"],"en_US":["Quirelike"]}"#, with: "")
            .write(to: older, atomically: true, encoding: .utf8)
        let plain = try TemporaryLibrary()
        let olderScan = try await ImportScan.read([older])
        #expect(olderScan.failures.isEmpty, "\(olderScan.failures)")
        try await plain.library.apply(ImportPlan(scan: olderScan, library: try await plain.library.importContents(for: olderScan), onExisting: .skip))
        #expect(try await plain.library.articles(matching: ArticleQuery()).count == 1)
        #expect(try await plain.library.personalWords().isEmpty)
    }

    @Test func localeNamesBecomeLanguageTags() {
        #expect(ArticleLanguage.tag(fromLocale: "de_DE.UTF-8") == "de_DE")
        #expect(ArticleLanguage.tag(fromLocale: "fr_FR@euro") == "fr_FR")
        #expect(ArticleLanguage.tag(fromLocale: "C.UTF-8") == "en_US")
        #expect(ArticleLanguage.tag(fromLocale: "POSIX") == "en_US")
        #expect(ArticleLanguage.isValid("en_US") && ArticleLanguage.isValid("fr") && !ArticleLanguage.isValid("en US") && !ArticleLanguage.isValid("x"))
        #expect(ArticleLanguage.bcp47("en_GB") == "en-GB")
        #expect(ArticleLanguage.tag(fromBCP47: "en-GB") == "en_GB")
    }

    /// The file an export wrote at `url`: the file itself, or the one file with `suffix` in the folder there.
    static func onlyFile(at url: URL, suffix: String) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else { return url }
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(suffix) }
        return url.appendingPathComponent(try #require(names.first))
    }
}
