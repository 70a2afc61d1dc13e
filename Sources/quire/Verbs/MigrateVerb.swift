import CommandLineArguments
import Foundation
import Library
import ObjectGraph
import Platform

/// `quire migrate`: upgrades a library an older Quire wrote, printing progress; resumes an
/// interrupted upgrade. (Every other verb upgrades too when it opens a library; this one says
/// what it did even when there was nothing to do.)
struct MigrateVerb: Verb {
    static let name = "migrate"
    static let summary = gettext("Upgrade a library written by an older Quire (a backup is kept)")
    static let usage = "[--library PATH] [--json] [--batch-size N]"
    static let details = gettext("--json prints one object: library (its path), upgraded (true or false) and format (its version now).")

    let library: LibraryOption
    /// Articles per transaction while a stage transforms them.
    let batchSize: Int
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        let text = try arguments.option("--batch-size") ?? "1000"
        guard let batchSize = Int(text), batchSize > 0, batchSize <= 1_000_000 else {
            throw .invalidValue(option: "--batch-size", value: text, expected: gettext("a number from 1 to 1000000"))
        }
        self.batchSize = batchSize
    }

    func run() async throws {
        let opened = try library.open(upgradeBatchSize: batchSize)
        let version = opened.container.persistentStore.metadata.schema.version
        if emitsJSON {
            let upgraded = (opened.upgrade?.stagesRun ?? 0) > 0
            try VerbOutput.printJSON(["library": .string(opened.url.path), "upgraded": .bool(upgraded), "format": .number(version)] as [String: JSONValue])
            return
        }
        if let upgrade = opened.upgrade, upgrade.stagesRun > 0 {
            print(String(cFormat: gettext("Upgraded %1$s to format %2$d."), opened.url.path, upgrade.to.version))
        } else {
            print(String(cFormat: gettext("%1$s is up to date (format %2$d)."), opened.url.path, version))
        }
    }
}
