import Foundation
import Platform

/// The backups a migration leaves: the original store file of each migration, kept in a folder
/// until the writer has used the migrated store for a while, listed in `backups.json` beside them.
///
/// "A while" is ``Retention/default``: the migrated store was opened for writing on 7 different
/// days, and 14 days have passed since the migration. Calendar time alone is not enough (a writer
/// away for a month has not tried the new version), and use alone is not either (seven opens in
/// one afternoon show little). Call ``recordUse(of:on:)`` after each successful open for writing:
/// it counts the day and removes the backups whose time has come. Backups of other stores in the
/// same folder are left alone.
public struct StoreBackups: Sendable {
    /// When a backup may go.
    public struct Retention: Sendable, Hashable {
        /// Days on which the migrated store was opened for writing.
        public var daysUsed: Int
        /// Days since the migration.
        public var age: Int

        public init(daysUsed: Int, age: Int) {
            self.daysUsed = daysUsed
            self.age = age
        }

        /// 7 days of use and 14 days of age.
        public static let `default` = Retention(daysUsed: 7, age: 14)
    }

    /// One backup.
    public struct Entry: Codable, Sendable, Hashable {
        /// The backup's file name in the folder.
        public var file: String
        /// The store it was made of (a migration keeps the identifier).
        public var storeIdentifier: UUID
        /// The schema the backup holds, and the one the store was migrated to.
        public var fromVersion: Int
        public var toVersion: Int
        /// When the migration replaced the original.
        public var created: Date
        /// The days (`yyyy-MM-dd`, UTC) on which the migrated store was opened for writing.
        public var daysUsed: [String]
    }

    /// The folder holding the backups and their list.
    public let folder: URL
    /// When backups may go.
    public var retention: Retention

    /// The backups in `folder`.
    public init(folder: URL, retention: Retention = .default) {
        self.folder = folder
        self.retention = retention
    }

    private var manifestPath: String { folder.appendingPathComponent("backups.json").path }

    /// The backups listed, oldest first (an empty list when there are none).
    public func entries() throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: manifestPath) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode([Entry].self, from: data)
        } catch {
            throw FileOperationError(operation: "read backups.json", path: manifestPath, code: EILSEQ)
        }
    }

    /// The file of a backup.
    public func url(of entry: Entry) -> URL { folder.appendingPathComponent(entry.file) }

    /// Counts today as a day of use of the migrated store and removes the backups of this store
    /// whose retention has passed; returns the removed files. Writes nothing on a day already counted.
    @discardableResult
    public func recordUse(of metadata: StoreMetadata, on date: Date = Date()) throws -> [URL] {
        var entries = try self.entries()
        let day = Self.day(date)
        var changed = false
        var removed: [URL] = []
        for index in entries.indices.reversed() where entries[index].storeIdentifier == metadata.storeIdentifier {
            let url = self.url(of: entries[index])
            guard StoreFiles.exists(url.path) else {
                // A migration killed before it linked its backup leaves an entry without a file.
                entries.remove(at: index)
                changed = true
                continue
            }
            if metadata.schema.version >= entries[index].toVersion && !entries[index].daysUsed.contains(day) {
                entries[index].daysUsed.append(day)
                changed = true
            }
            let age = date.timeIntervalSince(entries[index].created) / 86_400
            if entries[index].daysUsed.count >= retention.daysUsed && age >= Double(retention.age) {
                try StoreFiles.removeIfPresent(url.path)
                // The backup's own links to the values its rows referred to (see `ExternalBinaryFolder`).
                let values = ExternalBinaryFolder(store: url).url
                if StoreFiles.exists(values.path) { try FileManager.default.removeItem(at: values) }
                removed.append(url)
                entries.remove(at: index)
                changed = true
            }
        }
        if changed { try write(entries) }
        return removed
    }

    /// Adds an entry (before its file is linked, so that a kill cannot leave an unlisted backup).
    func add(_ entry: Entry) throws {
        var entries = try self.entries()
        entries.removeAll { $0.file == entry.file }
        entries.append(entry)
        try write(entries)
    }

    private func write(_ entries: [Entry]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try StoreFiles.createFolder(folder.path)
        try DurableFile.write(try encoder.encode(entries), to: manifestPath)
    }

    private static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}
