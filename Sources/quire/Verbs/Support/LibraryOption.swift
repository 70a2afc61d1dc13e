import CommandLineArguments
import Foundation
import Library
import ObjectGraph

/// The `--library PATH` option every library verb takes: the library to work on, by default the
/// writer's own (`Library.defaultURL()`).
struct LibraryOption: Sendable {
    /// The store file.
    let url: URL

    /// Reads `--library`; a relative path is taken from the current folder.
    init(arguments: inout VerbArguments) throws(CommandLineError) {
        if let path = try arguments.option("--library") {
            guard !path.isEmpty else { throw .invalidValue(option: "--library", value: path, expected: "a file path") }
            url = URL(fileURLWithPath: path)
        } else {
            url = Library.defaultURL()
        }
    }

    /// Opens the library the way every verb does (`Library.openNow`): an older library is upgraded
    /// first, with progress on standard error; a busy one is tried again; one that may not be
    /// written opens read-only (said on standard error). Only verbs that add articles create a
    /// missing library. Failures are `LibraryProblem`s, which `VerbRunner` prints as their message.
    /// `VerbRunner` closes the library when the verb ends (``OpenedLibraries``).
    func open(creatingIfMissing: Bool = false, upgradeBatchSize: Int = 1000) throws -> Library {
        var options = LibraryOpenOptions(createIfMissing: creatingIfMissing)
        options.upgradeBatchSize = upgradeBatchSize
        let library = try Library.openNow(at: url, options: options, progress: VerbOutput.upgradeProgress())
        OpenedLibraries.add(library)
        if let upgrade = library.upgrade, upgrade.stagesRun > 0 {
            VerbOutput.note(Self.upgradeNote(upgrade, library: library))
        }
        if case .readOnly(let reason) = library.access {
            VerbOutput.note(LibraryProblem(.readOnly(reason), path: library.url.path).message)
        }
        do {
            for removed in try library.recordUseForBackups() {
                VerbOutput.note("Removed the upgrade backup \(removed.path), no longer needed.")
            }
        } catch {
            // The library itself is fine; keeping a backup longer than needed is harmless.
            VerbOutput.note("Could not update the list of upgrade backups: \(error)")
        }
        return library
    }

    /// What an upgrade did, for the writer.
    static func upgradeNote(_ upgrade: MigrationOutcome, library: Library) -> String {
        let from = upgrade.from.map { "format \($0.version)" } ?? "an older format"
        var text = "Upgraded \(library.url.path) from \(from) to format \(upgrade.to.version)"
        if upgrade.resumed { text += " (an interrupted upgrade was resumed)" }
        if let backup = upgrade.backup {
            let retention = StoreBackups.Retention.default
            text += ". The old library is kept at \(backup.path) until you have used this one on \(retention.daysUsed) days"
                + " over at least \(retention.age) days."
        }
        return text
    }
}
