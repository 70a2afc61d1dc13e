import Foundation
import Library
import ObjectGraph

/// `quire migrate`: upgrades a library an older Quire wrote, printing progress; resumes an
/// interrupted upgrade. (Every other verb upgrades too when it opens a library; this one says
/// what it did even when there was nothing to do.)
struct MigrateVerb: Verb {
    static let name = "migrate"
    static let summary = "Upgrade a library written by an older Quire (a backup is kept)"
    static let usage = "[--library PATH] [--batch-size N]"

    let library: LibraryOption
    /// Articles per transaction while a stage transforms them.
    let batchSize: Int

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        let text = try arguments.option("--batch-size") ?? "1000"
        guard let batchSize = Int(text), batchSize > 0, batchSize <= 1_000_000 else {
            throw .invalidValue(option: "--batch-size", value: text, expected: "a number from 1 to 1000000")
        }
        self.batchSize = batchSize
    }

    func run() async throws {
        let opened = try library.open(upgradeBatchSize: batchSize)
        let version = opened.container.persistentStore.metadata.schema.version
        if let upgrade = opened.upgrade, upgrade.stagesRun > 0 {
            print("Upgraded \(opened.url.path) to format \(upgrade.to.version).")
        } else {
            print("\(opened.url.path) is up to date (format \(version)).")
        }
    }
}
