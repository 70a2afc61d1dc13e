import Foundation
import ObjectGraph
import Platform
import Testing
import QuireTestSupport
import Synchronization

/// A picture whose bytes the store keeps outside the database from 16 bytes up.
final class Picture: ManagedObject {
    @Attribute("name") var name: String
    @Attribute("bytes") var bytes: Data?
}

enum PictureModel {
    static let threshold = 16
    static let schema = Schema(version: 1, entities: [
        EntityDescription("Picture", class: Picture.self, attributes: [
            AttributeDescription("name", .string),
            AttributeDescription("bytes", .binaryData, optional: true, externalStorageThreshold: threshold),
        ]),
    ])

    /// Bytes that differ for each `seed` (and from those of every other seed).
    static func bytes(_ seed: Int, count: Int = 64) -> Data {
        var random = SeededGenerator(seed: UInt64(seed) + 1)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
    }
}

/// Binary values kept in files beside the store: written before their rows commit, read only when
/// asked for, collected only when no committed row or running save refers to them, and checked.
@Suite struct ExternalBinaryTests {
    private func open(_ directory: TemporaryFolder, busyTimeout: TimeInterval = 5) throws -> PersistentContainer {
        var description = StoreDescription.file(directory.file())
        description.busyTimeout = busyTimeout
        return try PersistentContainer(schema: PictureModel.schema, store: description)
    }

    /// Inserts pictures named by their seeds, with the bytes of each seed (a nil seed: no bytes).
    @discardableResult
    private func insert(_ seeds: [Int?], count: Int = 64, into container: PersistentContainer) throws -> [ManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let pictures = seeds.map { seed in
                let picture = Picture(context: context)
                picture.name = seed.map(String.init) ?? "none"
                picture.bytes = seed.map { PictureModel.bytes($0, count: count) }
                return picture
            }
            try context.save()
            return pictures.map(\.objectID)
        }
    }

    private func files(_ container: PersistentContainer) throws -> Set<String> {
        let folder = try #require(container.persistentStore.externalBinaries)
        guard FileManager.default.fileExists(atPath: folder.url.path) else { return [] }
        return Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    }

    private func bytesByName(_ container: PersistentContainer) throws -> [String: Data?] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Picture>()).map { ($0.name, $0.bytes) })
        }
    }

    @Test func largeValuesGoToFilesNamedByTheirDigestAndSmallOnesStayInTheRow() throws {
        let directory = try TemporaryFolder()
        let container = try open(directory)
        let small = PictureModel.bytes(1, count: PictureModel.threshold - 1)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let inline = Picture(context: context)
            inline.name = "small"
            inline.bytes = small
            let external = Picture(context: context)
            external.name = "large"
            external.bytes = PictureModel.bytes(2)
            try context.save()
            // The saving context reads its own objects' bytes back from the files too.
            #expect(external.bytes == PictureModel.bytes(2))
            #expect(inline.bytes == small)
        }
        #expect(try files(container) == [SHA256.hex(PictureModel.bytes(2))])
        #expect(try container.persistentStore.externalReferences().map(\.digest) == [SHA256.hex(PictureModel.bytes(2))])

        let reopened = try open(directory)
        #expect(try bytesByName(reopened) == ["small": small, "large": PictureModel.bytes(2)])
    }

    @Test func aBatchInsertKeepsLargeValuesInFilesAsASaveDoes() throws {
        // Each row's large bytes go to their file (a row after a large one, with small bytes or
        // none, keeps its own), small ones stay in the row.
        let directory = try TemporaryFolder()
        let container = try open(directory)
        let context = container.newBackgroundContext()
        let rows: [(name: String, count: Int?)] = [("large", 64), ("small", PictureModel.threshold - 1), ("none", nil), ("large too", 40)]
        let inserted = try context.performAndWait {
            try context.execute(BatchInsertRequest<Picture>(objects: rows.enumerated().map { seed, row in
                var values: [String: PrimitiveValue] = ["name": .string(row.name)]
                if let count = row.count { values["bytes"] = .data(PictureModel.bytes(seed, count: count)) }
                return values
            })).count
        }
        #expect(inserted == rows.count)
        #expect(try files(container) == [SHA256.hex(PictureModel.bytes(0, count: 64)), SHA256.hex(PictureModel.bytes(3, count: 40))])
        var expected: [String: Data?] = [:]
        for (seed, row) in rows.enumerated() { expected.updateValue(row.count.map { PictureModel.bytes(seed, count: $0) }, forKey: row.name) }
        #expect(try bytesByName(try open(directory)) == expected)
    }

    @Test func equalValuesShareOneFile() throws {
        let directory = try TemporaryFolder()
        let container = try open(directory)
        try insert([7, 7, 8], into: container)
        #expect(try files(container) == [SHA256.hex(PictureModel.bytes(7)), SHA256.hex(PictureModel.bytes(8))])
        #expect(try container.persistentStore.externalReferences().count == 3)
    }

    @Test func fetchingAndFaultingReadNoFileUntilTheValueIsAskedFor() throws {
        let directory = try TemporaryFolder()
        let ids = try insert([3], into: try open(directory))
        let folder = ExternalBinaryFolder(store: directory.file())
        let path = folder.path(of: SHA256.hex(PictureModel.bytes(3)))
        let aside = path + ".aside"
        // With the file away, fetching and firing the fault still work: neither reads it.
        try FileManager.default.moveItem(atPath: path, toPath: aside)
        let context = try open(directory).newBackgroundContext()
        try context.performAndWait {
            let picture = try #require(try context.existingObject(with: ids[0]) as? Picture)
            #expect(picture.name == "3")
            #expect(throws: ExternalBinaryError(kind: .missing, digest: SHA256.hex(PictureModel.bytes(3)), path: path)) {
                try picture.binaryValue(forKey: "bytes")
            }
            // Asked for again once the file is back, the bytes are read then.
            try FileManager.default.moveItem(atPath: aside, toPath: path)
            #expect(try picture.binaryValue(forKey: "bytes") == PictureModel.bytes(3))
            #expect(picture.bytes == PictureModel.bytes(3))
            #expect(try picture.value(forKey: "bytes") as? Data == PictureModel.bytes(3))
        }
    }

    @Test func theCollectorRemovesOnlyFilesNoRowRefersTo() throws {
        let directory = try TemporaryFolder()
        let container = try open(directory)
        let ids = try insert([1, 2, 3, 3], into: container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            // Replaced, deleted, and deleted while another row keeps the same bytes.
            (try context.existingObject(with: ids[0]) as! Picture).bytes = PictureModel.bytes(4)
            context.delete(try context.existingObject(with: ids[1]))
            context.delete(try context.existingObject(with: ids[2]))
            try context.save()
        }
        // A file of a save that never committed, and a temporary file of one killed while writing.
        let folder = try #require(container.persistentStore.externalBinaries)
        try Data("never committed".utf8).write(to: URL(fileURLWithPath: folder.path(of: SHA256.hex(PictureModel.bytes(9)))))
        try Data("half".utf8).write(to: folder.url.appendingPathComponent(SHA256.hex(PictureModel.bytes(9)) + ".K3X9QZ"))

        let removed = try container.persistentStore.collectExternalBinaries()
        #expect(Set(removed) == [
            SHA256.hex(PictureModel.bytes(1)), SHA256.hex(PictureModel.bytes(2)), SHA256.hex(PictureModel.bytes(9)),
            SHA256.hex(PictureModel.bytes(9)) + ".K3X9QZ",
        ])
        #expect(try files(container) == [SHA256.hex(PictureModel.bytes(3)), SHA256.hex(PictureModel.bytes(4))])
        #expect(try bytesByName(try open(directory)) == ["1": PictureModel.bytes(4), "3": PictureModel.bytes(3)])
        #expect(try container.persistentStore.externalBinaryProblems().isEmpty)
    }

    @Test func aFlippedByteIsReportedWithTheObjectsThatReferToTheFileAndASaveRepairsIt() throws {
        let directory = try TemporaryFolder()
        let container = try open(directory)
        let ids = try insert([5, 5, 6], into: container)
        let digest = SHA256.hex(PictureModel.bytes(5))
        let path = try #require(container.persistentStore.externalBinaries).path(of: digest)
        var damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        damaged[10] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: path))

        let problems = try container.persistentStore.externalBinaryProblems()
        #expect(problems.map(\.reference.objectID) == [ids[0], ids[1]])
        #expect(problems.allSatisfy { $0.error == ExternalBinaryError(kind: .damaged, digest: digest, path: path) && $0.reference.attribute == "bytes" })
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let picture = try context.existingObject(with: ids[0]) as! Picture
            #expect(throws: ExternalBinaryError(kind: .damaged, digest: digest, path: path)) { try picture.binaryValue(forKey: "bytes") }
        }
        // Saving the same bytes again (as an import of the original would) writes the file whole.
        try insert([5], into: container)
        #expect(try container.persistentStore.externalBinaryProblems().isEmpty)
    }

    @Test func aCollectorCannotRunWhileASaveIsBetweenWritingItsFileAndCommitting() throws {
        let directory = try TemporaryFolder()
        let saving = try open(directory)
        let collecting = try open(directory, busyTimeout: 0.05)
        let outcome = Mutex<(files: Set<String>, error: (any Error)?)?>(nil)
        let digest = SHA256.hex(PictureModel.bytes(11))
        saving.persistentStore.setStatementTrace { sql in
            // The save's row is being written: its file is on disk, its transaction not committed.
            guard sql.hasPrefix("INSERT INTO \"Picture\""), outcome.withLock({ $0 == nil }) else { return }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: ExternalBinaryFolder(store: directory.file()).url.path)) ?? []
            var failure: (any Error)?
            do { try collecting.persistentStore.collectExternalBinaries() } catch { failure = error }
            outcome.withLock { $0 = (Set(files), failure) }
        }
        try insert([11], into: saving)
        let seen = try #require(outcome.withLock { $0 })
        #expect(seen.files == [digest])
        #expect((seen.error as? StoreError)?.kind == .busy)
        #expect(try collecting.persistentStore.collectExternalBinaries().isEmpty)
        #expect(try bytesByName(collecting) == ["11": PictureModel.bytes(11)])
    }

    @Test func aStoreInMemoryKeepsEveryValueInItsRows() throws {
        let container = try PersistentContainer(schema: PictureModel.schema, store: .inMemory)
        #expect(container.persistentStore.externalBinaries == nil)
        try insert([1], into: container)
        #expect(try container.persistentStore.externalReferences().isEmpty)
        #expect(try bytesByName(container) == ["1": PictureModel.bytes(1)])
    }

    @Test func aThresholdOnlyFitsAStoredBinaryAttribute() {
        let schema = Schema(version: 1, entities: [
            EntityDescription("Picture", attributes: [
                AttributeDescription("name", .string, externalStorageThreshold: 10),
                AttributeDescription("bytes", .binaryData, indexed: true, externalStorageThreshold: 10),
            ]),
        ])
        let error = #expect(throws: SchemaError.self) { try schema.validate() }
        let kinds = error?.problems.map(\.kind)
        #expect(kinds == [.externalStorage, .externalStorage])
    }

    @Test func aMigrationBackupKeepsTheValuesItsRowsReferTo() throws {
        // The backup's folder holds links to the values, so collecting the migrated store's
        // folder cannot take a value from the backup.
        let directory = try TemporaryFolder()
        try insert([1, 2], into: try open(directory))
        let version2 = Schema(version: 2, entities: [
            EntityDescription("Picture", class: Picture.self, attributes: [
                AttributeDescription("name", .string),
                AttributeDescription("bytes", .binaryData, optional: true, externalStorageThreshold: PictureModel.threshold),
                AttributeDescription("caption", .string, optional: true),
            ]),
        ])
        let plan = try MigrationPlan(schemas: [PictureModel.schema, version2], stages: [.lightweight(from: PictureModel.schema, to: version2)])
        let outcome = try StoreMigrator(plan: plan, store: directory.file()).runNow()
        let backup = try #require(outcome.backup)
        let migrated = try PersistentContainer(schema: version2, store: .file(directory.file()))
        let context = migrated.newBackgroundContext()
        try context.performAndWait {
            for picture in try context.fetch(FetchRequest<Picture>()) { context.delete(picture) }
            try context.save()
        }
        #expect(try migrated.persistentStore.collectExternalBinaries().count == 2)
        let kept = ExternalBinaryFolder(store: backup)
        #expect(try kept.contents(of: SHA256.hex(PictureModel.bytes(1))) == PictureModel.bytes(1))
        #expect(try kept.contents(of: SHA256.hex(PictureModel.bytes(2))) == PictureModel.bytes(2))
    }
}

/// A failed save leaves the objects holding their bytes, so a collection after it cannot leave them
/// with a reference to a removed file; a reference whose file is gone is never saved.
@Suite struct ExternalBinaryFailedSaveTests {
    @Test func aFailedSaveGivesTheObjectsTheirBytesBack() throws {
        let directory = try TemporaryFolder()
        let container = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        let other = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let picture = Picture(context: context)
            picture.name = "first"
            try context.save()
            picture.bytes = PictureModel.bytes(21)
            // Another connection changes the row meanwhile: the save fails with a conflict, after
            // its file was written.
            let otherContext = other.newBackgroundContext()
            try otherContext.performAndWait {
                let same = try #require(try otherContext.fetch(FetchRequest<Picture>()).first)
                same.name = "changed elsewhere"
                try otherContext.save()
            }
            #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(try other.persistentStore.collectExternalBinaries() == [SHA256.hex(PictureModel.bytes(21))])

            // The object still has its bytes, and saving again (after taking the other change) writes the file anew.
            #expect(picture.bytes == PictureModel.bytes(21))
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
        }
        let reopened = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        #expect(try reopened.persistentStore.externalBinaryProblems().isEmpty)
        let read = reopened.newBackgroundContext()
        try read.performAndWait {
            let picture = try #require(try read.fetch(FetchRequest<Picture>()).first)
            #expect(try picture.binaryValue(forKey: "bytes") == PictureModel.bytes(21))
        }
    }

    @Test func aReferenceWhoseFileIsGoneIsNeverSaved() throws {
        let directory = try TemporaryFolder()
        let container = try PersistentContainer(schema: PictureModel.schema, store: .file(directory.file()))
        let context = container.newBackgroundContext()
        let digest = SHA256.hex(PictureModel.bytes(22))
        try context.performAndWait {
            let picture = Picture(context: context)
            picture.name = "one"
            picture.bytes = PictureModel.bytes(22)
            try context.save()
            try FileManager.default.removeItem(atPath: try #require(container.persistentStore.externalBinaries).path(of: digest))
            picture.name = "renamed"
            #expect(throws: ExternalBinaryError.self) { try context.save() }
        }
    }
}
