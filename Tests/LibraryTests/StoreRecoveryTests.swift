import Foundation
import CSQLite
import ObjectGraph
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Libraries that cannot be used as they are: damaged pages, a truncated file, a file that is not
/// a database, a library from a newer Quire, one held by another program, one on a read-only file
/// system. Each ends in its documented state, and no article text that SQLite can still read is lost.
@Suite struct StoreRecoveryTests {
    /// Article titles and bodies of the V1 fixture, by ID, and its drafts' bodies.
    private static func fixtureTexts() throws -> (articles: [String: (String, String)], drafts: Set<String>) {
        let folder = try TemporaryFolder()
        let dump = try StoreDump(LibraryFixtures.copy(LibraryFixtures.v1, into: folder), schema: LibrarySchema.v1)
        var articles: [String: (String, String)] = [:]
        for row in dump.entities["Article"]!.values { articles[row["id"]!] = (row["title"]!, row["body"]!) }
        return (articles, Set(dump.entities["DraftRecovery"]!.values.map { $0["body"]! }))
    }

    /// Every article of the library as in the dump format: ID → (title, body); and every draft body.
    private static func texts(of library: Library) async throws -> (articles: [String: (String, String)], drafts: Set<String>) {
        try await library.read { context in
            var articles: [String: (String, String)] = [:]
            for article in try context.fetch(FetchRequest<StoredArticle>()) {
                articles["UUID \(article.id)"] = ("String \(article.title)", "String \(article.body)")
            }
            return (articles, Set(try context.fetch(FetchRequest<DraftRecovery>()).map { "String \($0.body)" }))
        }
    }

    /// Damages a copy of the V1 fixture, checks that opening and `quire check` classify it, recovers
    /// it, and returns the recovery's report, the new library and the damaged bytes.
    private func damageAndRecover(
        _ damage: (URL) throws -> Void, expecting code: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (LibraryRecovery.Report, Library, Data, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let url = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
        try damage(url)
        let damaged = try Data(contentsOf: url)

        do {
            _ = try await Library.open(at: url)
            Issue.record("the damaged library opened", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.remedies == [.recover], sourceLocation: sourceLocation)
        }
        #expect(try Data(contentsOf: url) == damaged, "opening changed the damaged file", sourceLocation: sourceLocation)
        let check = try QuireCommand.run(["check", "--library", url.path])
        #expect(check.status == 1, sourceLocation: sourceLocation)
        #expect(check.output.contains("classification: \(code)\n"), "\(check.output)", sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: url) == damaged, "checking changed the damaged file", sourceLocation: sourceLocation)

        let report = try await LibraryRecovery.recover(libraryAt: url)
        let quarantined = report.quarantine.appendingPathComponent("library.quire")
        #expect(try Data(contentsOf: quarantined) == damaged, "the quarantined file is the damaged one, unchanged", sourceLocation: sourceLocation)
        #expect(FileManager.default.fileExists(atPath: report.quarantine.appendingPathComponent("report.txt").path), sourceLocation: sourceLocation)
        #expect(LibraryCheck.run(url).classification == .ok, sourceLocation: sourceLocation)
        return (report, try await Library.open(at: url), damaged, folder)
    }

    @Test func flippedBytesInAnIndexLoseNothing() async throws {
        let (report, library, _, folder) = try await damageAndRecover({ url in
            let page = try #require(try StoreDamage.pages(of: "og_unique_Article_id", type: "leaf", in: url).first)
            try StoreDamage.flipBytes(inPage: page.page, of: url, skip: 8)
        }, expecting: "damaged")
        let original = try Self.fixtureTexts()
        let recovered = try await Self.texts(of: library)
        #expect(recovered.articles.count == original.articles.count)
        for (id, text) in original.articles { #expect(recovered.articles[id].map { $0 == text } == true, "\(id)") }
        #expect(recovered.drafts == original.drafts)
        #expect(report.unreadable.values.allSatisfy { $0 == 0 })
        #expect(report.summary.english.hasPrefix("Recovered 18 articles, everything Quire could find."))
        #expect(try await library.openConflicts().count == 2)
        withExtendedLifetime(folder) {}
    }

    @Test func aDamagedPageOfArticlesLosesOnlyItsOwnRows() async throws {
        var lostCells = 0
        let (report, library, _, folder) = try await damageAndRecover({ url in
            let leaves = try StoreDamage.pages(of: "Article", type: "leaf", in: url)
            let page = leaves[leaves.count / 2]
            lostCells = page.cells
            try StoreDamage.flipBytes(inPage: page.page, of: url)
        }, expecting: "damaged")
        let original = try Self.fixtureTexts()
        let recovered = try await Self.texts(of: library)
        #expect(lostCells > 0)
        #expect(report.recovered["Article"] == original.articles.count - lostCells)
        #expect((report.unreadable["Article"] ?? 0) >= lostCells)
        // What was read is exactly what was written; drafts of lost articles became articles.
        let articleTexts = Set(recovered.articles.values.map { $0.1 })
        for (id, text) in recovered.articles where original.articles[id] != nil { #expect(original.articles[id]! == text) }
        for draft in original.drafts { #expect(recovered.drafts.contains(draft) || articleTexts.contains(draft), "draft \(draft.prefix(40))") }
        #expect(report.summary.english.contains("could not be read"))
        withExtendedLifetime(folder) {}
    }

    @Test func aTruncatedLibraryKeepsWhatItStillHolds() async throws {
        let (report, library, _, folder) = try await damageAndRecover({ url in
            // Cut after the articles' last page: what comes after (overflow pages of long bodies,
            // the outbox, the full-text index) is gone.
            let last = try StoreDamage.pages(of: "Article", type: "leaf", in: url).map(\.page).max()!
            try StoreDamage.truncate(url, toPages: last)
        }, expecting: "damaged")
        let original = try Self.fixtureTexts()
        let recovered = try await Self.texts(of: library)
        for (id, text) in recovered.articles where original.articles[id] != nil { #expect(original.articles[id]! == text) }
        #expect((report.recovered["Article"] ?? 0) > 10)
        #expect(library.container.persistentStore.metadata.schema.checksum == LibrarySchema.current.checksum)
        withExtendedLifetime(folder) {}
    }

    @Test func flippedBytesInTheHeaderLoseNothing() async throws {
        let (report, library, _, folder) = try await damageAndRecover({ url in
            try StoreDamage.flipBytes(inPage: 1, of: url, count: 16)
        }, expecting: "not-a-database")
        let original = try Self.fixtureTexts()
        let recovered = try await Self.texts(of: library)
        #expect(report.recovered["Article"] == original.articles.count)
        for (id, text) in original.articles { #expect(recovered.articles[id].map { $0 == text } == true, "\(id)") }
        #expect(recovered.drafts == original.drafts)
        withExtendedLifetime(folder) {}
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideWhole() async throws {
        let (report, library, damaged, folder) = try await damageAndRecover({ url in
            try Data("# My notes\n\nNot a database, but someone's text.\n".utf8).write(to: url)
        }, expecting: "not-a-database")
        #expect(String(decoding: damaged, as: UTF8.self).contains("someone's text"))
        #expect(report.recovered.isEmpty)
        #expect(report.summary.english.hasPrefix("Quire could not read anything"))
        #expect(try await library.articles(matching: ArticleQuery()).isEmpty)
        withExtendedLifetime(folder) {}
    }

    @Test func aLibraryFromANewerQuireOpensReadOnlyAndStaysAsItIs() async throws {
        let folder = try TemporaryFolder()
        let url = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
        _ = try await Library.open(at: url)
        // A newer Quire added an attribute (and an index) to articles.
        var newer = LibrarySchema.v6
        newer.version = 7
        newer.entities[0].attributes.append(AttributeDescription("pinnedNote", .string, optional: true, indexed: true))
        let plan = try MigrationPlan(schemas: [LibrarySchema.v6, newer], stages: [.lightweight(from: LibrarySchema.v6, to: newer)])
        _ = try StoreMigrator(plan: plan, store: url).runNow()
        let before = try Data(contentsOf: url)

        // The read-only library is closed before the next upgrade: open, it holds the store's
        // write-ahead log as any reader does.
        do {
            let library = try await Library.open(at: url)
            #expect(library.access == .readOnly(.newerVersion))
            #expect(library.condition == .readOnly(.newerVersion))
            #expect(try await library.articles(matching: ArticleQuery()).count == 17)
            let id = try #require(try await library.articles(matching: ArticleQuery()).first?.id)
            await #expect(throws: StoreError.self) { try await library.editArticle(id, body: "no downgrade writes") }
            // Export works.
            let export = folder.appending("export")
            let source = try await library.exportSource(for: .library)
            let result = try await ExportJob(format: .markdown, destination: export).run(from: source)
            #expect(result.articleCount == 17, "the library without its trash")
            #expect(try Data(contentsOf: url) == before)
            let check = try QuireCommand.run(["check", "--library", url.path])
            #expect(check.output.contains("classification: newer-version"))
        }

        // A newer Quire that removed what this one reads: refused, nothing written.
        var withoutExcerpt = newer
        withoutExcerpt.version = 8
        withoutExcerpt.entities[0].attributes.removeAll { $0.name == "excerpt" }
        let removal = try MigrationPlan(schemas: [newer, withoutExcerpt], stages: [.lightweight(from: newer, to: withoutExcerpt)])
        _ = try StoreMigrator(plan: removal, store: url).runNow()
        let removed = try Data(contentsOf: url)
        await #expect { _ = try await Library.open(at: url) } throws: { error in
            (error as? LibraryProblem)?.kind == .newerVersion(found: 8, known: 6)
        }
        #expect(try Data(contentsOf: url) == removed)
    }

    @Test func aLibraryHeldByAnotherProgramIsRetriedThenReportedBusy() async throws {
        let folder = try TemporaryFolder()
        let url = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
        let before = try Data(contentsOf: url)
        var options = LibraryOpenOptions()
        options.busyRetryDelays = [.milliseconds(10), .milliseconds(20)]
        do {
            let other = try PersistentContainer(schema: LibrarySchema.v1, store: .file(url))
            let context = other.newBackgroundContext()
            try context.performAndWait { _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Article")) }
            await #expect { _ = try await Library.open(at: url, options: options) } throws: { error in
                (error as? LibraryProblem)?.kind == .busy && (error as? LibraryProblem)?.remedies == [.retry]
            }
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }.isEmpty)
        // From V1: every stage of the plan.
        #expect(try await Library.open(at: url, options: options).upgrade?.stagesRun == LibrarySchema.migrationPlan().stages.count)
    }

    /// Another program holding the file exclusively for a moment (as SQLite does while the last
    /// connection closes and checkpoints its log) delays opening; it is no damaged-library error.
    @Test func aLibraryHeldExclusivelyForAMomentOpensOnceItIsFree() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        var creating = LibraryOpenOptions()
        creating.createIfMissing = true
        _ = try await Library.open(at: url, options: creating).createArticle(ArticleContent(title: "Kept", body: "text"))
        var holder: OpaquePointer?
        #expect(sqlite3_open(url.path, &holder) == SQLITE_OK)
        // The library above may still be closing.
        sqlite3_busy_timeout(holder, 5_000)
        // In exclusive locking mode a WAL database's first read takes a lock no reader gets past.
        #expect(sqlite3_exec(holder, "PRAGMA locking_mode=EXCLUSIVE; SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK)
        let held = HeldConnection(holder)
        let release = Task.detached {
            try await Task.sleep(for: .milliseconds(300))
            held.close()
        }
        var options = LibraryOpenOptions()
        options.busyRetryDelays = [.milliseconds(50)]
        let library = try await Library.open(at: url, options: options)
        try await release.value
        #expect(library.access == .readWrite)
        #expect(try await library.articles(matching: ArticleQuery()).map(\.title) == ["Kept"])
    }

    @Test func retriesWhileBusyStopAfterTheLastPause() throws {
        var options = LibraryOpenOptions()
        options.busyRetryDelays = [.milliseconds(1), .milliseconds(1)]
        var attempts = 0
        let value = try Library.retryingBusy(options) { () throws -> Int in
            attempts += 1
            if attempts < 3 { throw StoreError(kind: .busy, message: "locked") }
            return 42
        }
        #expect(value == 42 && attempts == 3)
        attempts = 0
        #expect(throws: StoreError.self) {
            try Library.retryingBusy(options) { () throws -> Int in
                attempts += 1
                throw StoreError(kind: .busy, message: "locked")
            }
        }
        #expect(attempts == 3)
    }

    @Test(.enabled(if: geteuid() != 0 || ScratchMount.isAvailable))
    func aLibraryThatMayNotBeWrittenOpensReadOnlyWithExport() async throws {
        let folder = try TemporaryFolder()
        let mount = geteuid() == 0 ? try ScratchMount(megabytes: 8) : nil
        defer { mount?.unmount() }
        let place = mount?.url ?? folder.appending("locked")
        if mount == nil { try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true) }
        let url = place.appendingPathComponent("library.quire")
        do {
            let library = try await Library.open(at: url, options: LibraryOpenOptions(createIfMissing: true))
            try await library.createArticle(ArticleContent(title: "Kept safe", body: "on a read-only disk"))
            // Closed, not left to be released: a file still open for writing keeps the remount
            // below from making the file system read-only.
            library.close()
        }
        if let mount {
            try mount.makeReadOnly()
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: place.path)
        }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: place.path) }
        let before = try Data(contentsOf: url)
        let reason: LibraryProblem.ReadOnlyReason = mount == nil ? .permission : .readOnlyFileSystem

        let library = try await Library.open(at: url)
        #expect(library.access == .readOnly(reason))
        let articles = try await library.articles(matching: ArticleQuery())
        #expect(articles.map(\.title) == ["Kept safe"])
        await #expect { try await library.editArticle(articles[0].id, body: "changed") } throws: { error in
            LibraryProblem.classify(error, path: url.path).kind == .readOnly(reason)
        }
        let export = folder.appending("export.json")
        let source = try await library.exportSource(for: .library)
        let result = try await ExportJob(format: .jsonArchive(try await library.archiveOptions()), destination: export).run(from: source)
        #expect(result.articleCount == 1)
        #expect(try String(contentsOf: export, encoding: .utf8).contains("on a read-only disk"))
        #expect(try Data(contentsOf: url) == before)
        let check = try QuireCommand.run(["check", "--library", url.path])
        #expect(check.output.contains("classification: read-only"), "\(check.output)")
    }
}

/// A raw SQLite connection closed from another task.
private final class HeldConnection: @unchecked Sendable {
    private let handle: OpaquePointer?

    init(_ handle: OpaquePointer?) {
        self.handle = handle
    }

    func close() {
        sqlite3_close(handle)
    }
}
