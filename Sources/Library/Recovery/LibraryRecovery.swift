import Foundation
import ObjectGraph
import Platform

/// What to do with a library that is damaged or not a database: move it (with its `-wal`, `-shm`
/// and `-journal` files) to a quarantine folder, where nothing is ever deleted; check its
/// integrity; copy whatever SQLite can still read into a new library at the same path; and tell the
/// writer what was recovered. The new library is upgraded if the damaged one was of an older format.
///
///     let report = try await LibraryRecovery.recover(libraryAt: url)
///     dialog.show(report.summary)        // "Recovered 41 of about 43 articles ..."
///
/// A draft whose article could not be read becomes an article of its own, so no typed text is lost.
public enum LibraryRecovery {
    /// What a recovery did.
    public struct Report: Sendable {
        /// The folder holding the damaged files as they were, and `report.txt`.
        public var quarantine: URL
        /// The new library (at the damaged one's path).
        public var library: URL
        /// SQLite's integrity messages for the damaged file.
        public var integrity: [String]
        /// Rows recovered per entity (`Article`, `DraftRecovery`, `SyncOperation`, `Conflict`, `Folder`, `Tag`, ...).
        public var recovered: [String: Int]
        /// Keys that could not be read, per entity: rows that may be lost.
        public var unreadable: [String: Int]
        /// Drafts whose article was lost, kept as new articles.
        public var draftsKeptAsArticles: Int
        /// The titles of the recovered articles, in key order.
        public var articleTitles: [String]

        /// What to tell the writer.
        public var summary: TranslatableText {
            let articles = recovered["Article"] ?? 0
            let lost = unreadable["Article"] ?? 0
            var sentences: [TranslatableText]
            if articles == 0 && lost == 0 && recovered.values.allSatisfy({ $0 == 0 }) {
                sentences = [TranslatableText("Quire could not read anything from the damaged library.")]
            } else if lost > 0 {
                // Translators: two parts of one sentence, "Recovered 18 articles; up to 3 more could not be read."
                sentences = [TranslatableText("%1$s; %2$s", TranslatableText.counted("Recovered %d article", "Recovered %d articles", articles, articles),
                    TranslatableText.counted("up to %d more could not be read.", "up to %d more could not be read.", lost, lost))]
            } else {
                sentences = [TranslatableText.counted("Recovered %d article, everything Quire could find.", "Recovered %d articles, everything Quire could find.", articles, articles)]
            }
            let drafts = recovered["DraftRecovery"] ?? 0
            let operations = recovered["SyncOperation"] ?? 0
            let conflicts = recovered["Conflict"] ?? 0
            if drafts + operations + conflicts > 0 {
                sentences.append(TranslatableText("Also recovered: %1$s, %2$s, %3$s.",
                    TranslatableText.counted("%d unsaved draft", "%d unsaved drafts", drafts, drafts),
                    TranslatableText.counted("%d outbox operation", "%d outbox operations", operations, operations),
                    TranslatableText.counted("%d conflict", "%d conflicts", conflicts, conflicts)))
            }
            if draftsKeptAsArticles > 0 {
                sentences.append(TranslatableText.counted(
                    "%d draft whose article was lost is now an article of its own.", "%d drafts whose articles were lost are now articles of their own.",
                    draftsKeptAsArticles, draftsKeptAsArticles))
            }
            sentences.append(TranslatableText("The damaged file is kept, unchanged, in %s.", quarantine.path))
            return TranslatableText(sentences: sentences)
        }
    }

    /// The folder quarantined files go to: `quarantine/` beside the library.
    public static func quarantineFolder(for url: URL) -> URL {
        url.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("quarantine", isDirectory: true)
    }

    /// Quarantines the library at `url` and salvages it into a new library at the same path.
    public static func recover(libraryAt url: URL) async throws(LibraryProblem) -> Report {
        let url = url.standardizedFileURL
        do {
            return try await recover(url)
        } catch {
            throw LibraryProblem.classify(error, path: url.path)
        }
    }

    private static func recover(_ url: URL) async throws -> Report {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw LibraryProblem(.missing, path: path) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = url.lastPathComponent
        var folder = quarantineFolder(for: url).appendingPathComponent("\(name)-\(formatter.string(from: Date()))")
        while FileManager.default.fileExists(atPath: folder.path) { folder = URL(fileURLWithPath: folder.path + "-1") }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        // Moved, never copied and deleted: the files stay exactly as they were found.
        let quarantined = folder.appendingPathComponent(name)
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try StoreFiles.move(path + suffix, to: quarantined.path + suffix)
        }
        // The attachments' files stay where the salvaged library finds them; the quarantined file
        // gets its own links to them, so that no later cleanup takes one from it.
        try ExternalBinaryFolder(store: url).keepValues(in: ExternalBinaryFolder(store: quarantined))

        let integrity: [String]
        switch try StoreIntegrity.check(quarantined).verdict {
        case .ok: integrity = ["ok"]
        case .damaged(let messages): integrity = messages
        case .notADatabase(let reason): integrity = ["not a database: \(reason)"]
        }

        let plan = LibrarySchema.migrationPlan()
        let salvaged = url.deletingLastPathComponent().appendingPathComponent(".\(name).salvage")
        for suffix in ["", "-wal", "-shm", "-journal"] { try StoreFiles.removeIfPresent(salvaged.path + suffix) }
        var report = Report(
            quarantine: folder, library: url, integrity: integrity, recovered: [:], unreadable: [:], draftsKeptAsArticles: 0,
            articleTitles: [])
        var orphanedDrafts: [[String: PrimitiveValue]] = []
        do {
            let salvage = try StoreSalvage.salvage(from: quarantined, schemas: plan.schemas, into: salvaged)
            report.recovered = salvage.recovered
            report.unreadable = salvage.unreadableKeys
            orphanedDrafts = salvage.orphans["DraftRecovery"] ?? []
            try StoreFiles.move(salvaged.path, to: path)
        } catch let error as StoreError where error.kind == .corrupt || error.kind == .notADatabase {
            // Nothing readable: the writer starts from an empty library, the old file stays in quarantine.
            for suffix in ["", "-wal", "-shm", "-journal"] { try StoreFiles.removeIfPresent(salvaged.path + suffix) }
        }

        let library = try Library.openNow(at: url, options: LibraryOpenOptions(createIfMissing: true))
        defer { library.close() }
        for draft in orphanedDrafts {
            let title = draft["title"]?.stringValue ?? ""
            try await library.createArticle(ArticleContent(
                title: title.isEmpty ? "Recovered draft" : title, body: draft["body"]?.stringValue ?? ""))
            report.draftsKeptAsArticles += 1
        }
        report.articleTitles = try await library.read { context in
            try context.fetch(FetchRequest<StoredArticle>()).map(\.title)
        }
        try DurableFile.write(Data(reportText(report).utf8), to: folder.appendingPathComponent("report.txt").path)
        return report
    }

    private static func reportText(_ report: Report) -> String {
        var lines = [
            "Quire recovered the library \(report.library.path) on \(ISO8601DateFormatter().string(from: Date())).",
            "", report.summary.english, "", "The damaged file as it was found: \(report.quarantine.path)", "",
            "SQLite's integrity check:",
        ]
        lines += report.integrity.map { "  \($0)" }
        lines += ["", "Rows recovered (and keys that could not be read):"]
        for entity in report.recovered.keys.sorted() {
            lines.append("  \(entity): \(report.recovered[entity] ?? 0) (\(report.unreadable[entity] ?? 0))")
        }
        lines += ["", "Recovered articles:"] + report.articleTitles.map { "  \($0.isEmpty ? "(untitled)" : $0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
