import SyncProtocol
import Foundation
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport
import Platform

@Suite struct ArchiveRoundTripTests {
    /// Articles with every field set, odd text and dates with fractions of seconds.
    static func library() -> [ArticleSnapshot] {
        var generator = SeededGenerator(seed: 42)
        let texts = SampleArticles.hostileTitles + ["", "plain", "line\r\nbreaks\r\n", "\u{0}nul and \u{FFFF}", "👩‍👩‍👧‍👦 family", "\"json\" \\ {escapes} </script>"]
        return (0..<60).map { index in
            let created = Date(timeIntervalSinceReferenceDate: 400_000_000 + Double(generator.next() % 300_000_000) + Double(generator.next() % 1_000_000) / 1_000_003)
            return ArticleSnapshot(
                id: UUID(), title: texts[index % texts.count], body: texts[(index * 7) % texts.count] + SampleArticles.richBody,
                folder: index % 3 == 0 ? nil : "Folder \(index % 4) ✓", tags: index % 2 == 0 ? [] : ["tag \(index % 5)", "émoji 🎉"],
                status: ArticleStatus.allCases[index % 3], isFavorite: index % 4 == 1, created: created,
                updated: created.addingTimeInterval(Double(generator.next() % 10_000) / 7),
                trashed: index % 5 == 0 ? created.addingTimeInterval(99.125) : nil,
                serverRevision: index % 2 == 0 ? Int64(generator.next() % 1000) : nil, localRevision: Int64(index),
                syncState: ArticleSyncState.allCases[index % 4])
        }
    }

    /// A personal dictionary with words that need escaping.
    static let personalWords = ["en_US": ["Quirelike", "naïve\"ly"], "de_DE": ["Schreibkram"]]

    @Test func archiveRoundTripIsLossless() async throws {
        let folder = try TemporaryFolder()
        let articles = Self.library()
        let exportedAt = Date(timeIntervalSinceReferenceDate: 750_000_000.000_123)
        let options = ArchiveExportOptions(
            schemaVersion: 3, includesSyncMetadata: true, folders: ["Empty folder", "Folder 1 ✓"], tags: ["unused"],
            personalWords: Self.personalWords, exportedAt: exportedAt)
        let destination = folder.appending("library.json")
        let result = try await ExportJob(format: .jsonArchive(options), destination: destination, batchSize: 7)
            .run(from: ArticleArraySource(articles))
        #expect(result.articleCount == articles.count)

        let archive = try LibraryArchive.read(from: Data(contentsOf: destination), path: destination.path)
        #expect(archive.format == LibraryArchive.formatName)
        #expect(archive.formatVersion == LibraryArchive.currentFormatVersion)
        #expect(archive.schemaVersion == 3)
        #expect(archive.exportedAt == exportedAt)
        #expect(archive.articles.map(\.snapshot) == articles)
        // Byte-exact text, not merely canonically equal.
        for (archived, original) in zip(archive.articles, articles) {
            #expect(archived.title.utf8.elementsEqual(original.title.utf8))
            #expect(archived.body.utf8.elementsEqual(original.body.utf8))
        }
        #expect(archive.folders.prefix(2) == ["Empty folder", "Folder 1 ✓"])
        #expect(Set(archive.folders) == Set(["Empty folder"] + articles.compactMap(\.folder)))
        #expect(Set(archive.tags) == Set(["unused"] + articles.flatMap(\.tags)))
        #expect(archive.personalWords == Self.personalWords)

        // The streamed file decodes exactly like one encoded whole.
        let whole = LibraryArchive(
            schemaVersion: 3, exportedAt: exportedAt, articles: articles.map { ArchivedArticle($0, includingSync: true) },
            folders: archive.folders, tags: archive.tags, personalWords: Self.personalWords)
        let reencoded = try LibraryArchive.makeDecoder().decode(LibraryArchive.self, from: LibraryArchive.makeEncoder().encode(whole))
        #expect(reencoded == archive)
    }

    @Test func archiveWithoutSyncMetadataDropsOnlyThat() async throws {
        let folder = try TemporaryFolder()
        let articles = Self.library()
        let destination = folder.appending("plain.json")
        try await ExportJob(format: .jsonArchive(.init(schemaVersion: 1, includesSyncMetadata: false)), destination: destination)
            .run(from: ArticleArraySource(articles))
        let text = try String(contentsOf: destination, encoding: .utf8)
        #expect(!text.contains("serverRevision"))
        let archive = try LibraryArchive.read(from: Data(contentsOf: destination), path: destination.path)
        for (archived, original) in zip(archive.articles, articles) {
            #expect(archived.sync == nil)
            #expect(archived.snapshot.content == original.content)
            #expect(archived.snapshot.trashed == original.trashed)
            #expect(archived.snapshot.syncState == .localOnly && archived.snapshot.serverRevision == nil)
        }
    }

    @Test func readerRefusesWhatIsNotACurrentArchive() throws {
        #expect(throws: ImportError.notAnArchive(path: "x.json")) {
            try LibraryArchive.read(from: Data(#"{"name": "package"}"#.utf8), path: "x.json")
        }
        #expect(throws: ImportError.notAnArchive(path: "x.json")) {
            try LibraryArchive.read(from: Data("not json".utf8), path: "x.json")
        }
        #expect(throws: ImportError.unsupportedArchiveVersion(path: "x.json", found: 99, newestSupported: 1)) {
            try LibraryArchive.read(from: Data(#"{"format": "quire-library-archive", "formatVersion": 99}"#.utf8), path: "x.json")
        }
        let damaged = #"{"format":"quire-library-archive","formatVersion":1,"schemaVersion":1,"exportedAt":"2024-01-01T00:00:00Z","application":"Quire","articles":[{"id":"nope"}],"folders":[],"tags":[]}"#
        do {
            _ = try LibraryArchive.read(from: Data(damaged.utf8), path: "x.json")
            Issue.record("a damaged archive was read")
        } catch {
            guard case .malformedArchive(_, let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(reason.contains("articles"))
        }
    }

    @Test func timestampsRoundTripExactly() {
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSinceReferenceDate: Double(Int64(generator.next() % 4_000_000_000) - 1_000_000_000) + Double(generator.next() % 1_000_000_000) / 1e9)
            #expect(Timestamp.date(from: Timestamp.string(from: date)) == date)
        }
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 951_782_400.25)) == "2000-02-29T00:00:00.250Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: -30_610_224_001)) == "0999-12-31T23:59:59Z")
        #expect(Timestamp.string(from: Date(timeIntervalSinceReferenceDate: 0.000001)) == "2001-01-01T00:00:00.000001Z")
        #expect(Timestamp.string(from: Date(timeIntervalSinceReferenceDate: 1.123456789)) == "2001-01-01T00:00:01.123456789Z")
        // The fewest digits that read back: dates made of whole milliseconds or microseconds never
        // get more.
        for _ in 0..<1000 {
            let seconds = Double(Int64(generator.next() % 4_000_000_000) - 1_000_000_000)
            let milliseconds = Date(timeIntervalSinceReferenceDate: seconds + Double(generator.next() % 1000) / 1000)
            let microseconds = Date(timeIntervalSinceReferenceDate: seconds + Double(generator.next() % 1_000_000) / 1_000_000)
            #expect(Timestamp.string(from: milliseconds).count <= "2001-01-01T00:00:00.000Z".count)
            #expect(Timestamp.string(from: microseconds).count <= "2001-01-01T00:00:00.000000Z".count)
            #expect(Timestamp.date(from: Timestamp.string(from: milliseconds)) == milliseconds)
            #expect(Timestamp.date(from: Timestamp.string(from: microseconds)) == microseconds)
        }
        #expect(Timestamp.date(from: "2024-05-01") == Date(timeIntervalSince1970: 1_714_521_600))
        #expect(Timestamp.date(from: "2024-05-01T12:00:00+02:00") == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(Timestamp.date(from: "2024-05-01 12:00") == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(Timestamp.date(from: "2023-02-29") == nil)
        #expect(Timestamp.date(from: "2024-05-01T25:00:00Z") == nil)
        #expect(Timestamp.date(from: "yesterday") == nil)
    }
}
