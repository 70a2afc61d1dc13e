import Foundation
import ObjectGraph
import Testing
@testable import Library
import QuireTestSupport

/// The kill sweep: `quire migrate` upgrades a copy of the V1 fixture in a child process and is
/// killed with SIGKILL at every boundary of the upgrade (copy, stage steps, validation, each step of
/// the swap, commits and the moments just before them) and at randomly chosen batch checkpoints.
/// Right after each kill the library is either untouched (byte for byte) or fully upgraded and
/// valid; the next start finishes the upgrade, and every article field equals the fixture's.
@Suite struct MigrationKillSweepTests {
    /// Small batches, so that the custom stage has several checkpoints to be killed at.
    private static let batchSize = 4

    @Test func aKillAtAnyPointLeavesTheLibraryUntouchedOrUpgraded() async throws {
        let points = try Self.pointsOfAWholeUpgrade()
        let checkpoints = points.filter { $0.contains(".batch.") }
        let boundaries = points.filter { !$0.contains(".batch.") }
        #expect(checkpoints.count >= 8, "the fixture is upgraded in several batches: \(points)")
        #expect(boundaries.contains("prepared") && boundaries.contains("swap.renamed"), "\(points)")
        let fixture = try StoreDump(LibraryFixtures.v1, schema: LibrarySchema.v1)
        let original = try Data(contentsOf: LibraryFixtures.v1)

        var sweep = boundaries + checkpoints.shuffled().prefix(3)
        sweep.removeAll { $0 == "finished" }  // reached after the upgrade returned: nothing left to kill
        for point in sweep {
            let folder = try TemporaryFolder()
            let url = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
            let killed = try Self.migrate(url, environment: ["OBJECTGRAPH_MIGRATION_KILL_AT": point])
            #expect(killed.signal == SIGKILL, "killed at \(point): \(killed.error)")

            // Right after the kill: untouched, or upgraded whole and valid.
            let version = try #require(try PersistentStore.metadata(at: url)).schema.checksum
            let upgraded = version == LibrarySchema.current.checksum
            if upgraded {
                #expect(points.firstIndex(of: point)! >= points.firstIndex(of: "swap.renamed")!, "upgraded before the swap, at \(point)")
                #expect(LibraryCheck.run(url).classification == .ok, "killed at \(point)")
            } else {
                #expect(version == LibrarySchema.v1.checksum, "killed at \(point)")
                #expect(try Data(contentsOf: url) == original, "the original was written, killed at \(point)")
            }

            // The next start knows which, and finishes the upgrade (resuming the working copy
            // where one was left).
            let library = try await Library.open(at: url)
            #expect(library.container.persistentStore.metadata.schema.checksum == LibrarySchema.current.checksum)
            // From V1, every stage runs (in the working copy, which a resumed upgrade starts again).
            #expect(library.upgrade.map { $0.stagesRun == LibrarySchema.migrationPlan().stages.count } ?? upgraded, "killed at \(point)")
            if points.firstIndex(of: point)! > points.firstIndex(of: "prepared")! && !upgraded {
                #expect(library.upgrade?.resumed == true, "killed at \(point), the upgrade started over")
            }
            let dump = try StoreDump(url, schema: LibrarySchema.current)
            #expect(dump.restricted(to: LibrarySchema.v1) == fixture, "killed at \(point): \(dump.restricted(to: LibrarySchema.v1).differences(from: fixture))")
            for article in dump.entities["Article"]!.values {
                let words = Int(article["wordCount"]!.split(separator: " ").last!)!
                #expect(article["readingMinutes"] == "Int64 \(ReadingTime.minutes(forWords: words))", "killed at \(point)")
            }
            // The workspace is gone and the backup is the original, byte for byte.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }.isEmpty, "killed at \(point)")
            let backups = try FileManager.default.contentsOfDirectory(at: Library.backupFolder(for: url), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "quire" }
            #expect(try backups.map { try Data(contentsOf: $0) } == [original], "killed at \(point)")
        }
    }

    /// Every point a whole upgrade of the fixture passes, in order (an untroubled run that names them).
    private static func pointsOfAWholeUpgrade() throws -> [String] {
        let folder = try TemporaryFolder()
        let run = try migrate(try LibraryFixtures.copy(LibraryFixtures.v1, into: folder), environment: ["OBJECTGRAPH_MIGRATION_POINTS": "1"])
        guard run.status == 0 else { throw StoreDamage.DamageError(message: "the traced upgrade failed: \(run.error)") }
        let prefix = "objectgraph-migration-point "
        return run.error.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }

    private static func migrate(_ url: URL, environment: [String: String]) throws -> ProgramRun {
        try QuireCommand.run(["migrate", "--library", url.path, "--batch-size", "\(batchSize)"], environment: environment)
    }
}
