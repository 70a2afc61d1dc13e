import CommandLineArguments
import Foundation
import Library
import ObjectGraph
import Platform

/// The `--library PATH` option every library verb takes: the library to work on, by default the
/// writer's own (`Library.defaultURL()`).
struct LibraryOption: Sendable {
    /// The store file.
    let url: URL

    /// Reads `--library`; a relative path is taken from the current folder.
    init(arguments: inout VerbArguments) throws(CommandLineError) {
        if let path = try arguments.option("--library") {
            guard !path.isEmpty else { throw .invalidValue(option: "--library", value: path, expected: gettext("a file path")) }
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
            VerbOutput.note(LibraryProblem(.readOnly(reason), path: library.url.path).message.translated)
        }
        do {
            for removed in try library.recordUseForBackups() {
                VerbOutput.note(String(cFormat: gettext("Removed the upgrade backup %s, no longer needed."), removed.path))
            }
        } catch {
            // The library itself is fine; keeping a backup longer than needed is harmless.
            VerbOutput.note(String(cFormat: gettext("Could not update the list of upgrade backups: %s"), "\(error)"))
        }
        return library
    }

    /// What an upgrade did, for the writer.
    static func upgradeNote(_ upgrade: MigrationOutcome, library: Library) -> String {
        var text = upgrade.from.map { String(cFormat: gettext("Upgraded %1$s from format %2$d to format %3$d"), library.url.path, $0.version, upgrade.to.version) }
            ?? String(cFormat: gettext("Upgraded %1$s from an older format to format %2$d"), library.url.path, upgrade.to.version)
        if upgrade.resumed { text += " " + gettext("(an interrupted upgrade was resumed)") }
        if let backup = upgrade.backup {
            let retention = StoreBackups.Retention.default
            text += ". " + String(cFormat: gettext("The old library is kept at %1$s until you have used this one on %2$d days over at least %3$d days."), backup.path, retention.daysUsed, retention.age)
        }
        return text
    }
}
