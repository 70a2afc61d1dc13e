import Foundation
import Platform
import ObjectGraph

/// Why a library could not be opened or written, classified, with what to tell the writer and
/// what they can do about it. Every failure of ``Library/open(at:options:progress:)`` is one, and
/// ``classify(_:path:)`` turns any error of a library operation into one.
///
/// The app shows ``title`` and ``message`` in a dialog with a button per ``remedies`` entry; the
/// command line prints ``message`` (and ``code`` for scripts). ``detail`` is the technical cause,
/// for a "details" expander and bug reports.
public struct LibraryProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The classes of trouble, each handled its own way.
    public enum Kind: Sendable, Hashable {
        /// There is no library at the path.
        case missing
        /// Another program holds the library (another Quire window, or one upgrading it); retried
        /// with backoff before this is reported.
        case busy
        /// The disk is full: nothing more can be saved until space is freed. The editor keeps its
        /// text in memory and in the draft-rescue file (``DraftRescueFile``).
        case diskFull(available: Int64?)
        /// An upgrade needs more free space than there is; nothing was changed.
        case notEnoughSpaceToUpgrade(required: Int64, available: Int64)
        /// The library may not be written: it is open read-only, with export available.
        case readOnly(ReadOnlyReason)
        /// A newer Quire wrote the library. It is opened read-only when this Quire can read it.
        case newerVersion(found: Int, known: Int)
        /// The library's format is none this Quire knows.
        case unknownVersion
        /// The library needs an upgrade and the caller did not allow one.
        case upgradeRequired(from: Int, to: Int)
        /// An upgrade did not finish; the library is as it was.
        case upgradeFailed
        /// The file is damaged or not a library: quarantine it and salvage what is readable
        /// (``LibraryRecovery``).
        case damaged(Damage)
        /// The disk reported an error.
        case ioError
        /// Anything else.
        case other
    }

    /// Why a library is read-only.
    public enum ReadOnlyReason: String, Sendable, Hashable {
        /// The file or its folder may not be written by this user.
        case permission
        /// The file system is mounted read-only.
        case readOnlyFileSystem
        /// A newer Quire wrote it; writing could lose what the newer version added.
        case newerVersion
    }

    /// What is wrong with a file that cannot be read as a library.
    public enum Damage: String, Sendable, Hashable {
        /// SQLite does not recognise the file as a database (another kind of file, or a damaged header).
        case notADatabase
        /// Pages of the database are damaged.
        case corrupt
        /// A database, but not a Quire library (no ObjectGraph metadata): left alone.
        case notALibrary
    }

    /// What the writer can do; the app offers one button per remedy.
    public enum Remedy: String, Sendable, Hashable {
        /// Try again (after closing the other program, or later).
        case retry
        /// Open the library read-only.
        case openReadOnly
        /// Export the articles (Markdown, HTML, PDF, JSON archive).
        case export
        /// Move the damaged file to quarantine and salvage what is readable into a new library.
        case recover
        /// Free disk space, then try again.
        case freeSpace
        /// Upgrade the library (a backup is kept).
        case upgrade
    }

    /// The class of trouble.
    public var kind: Kind
    /// The library file.
    public var path: String
    /// The technical cause (the underlying error's description).
    public var detail: String

    /// A problem of `kind` with the library at `path`.
    public init(_ kind: Kind, path: String, detail: String = "") {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    /// A short word for scripts and `quire check`: `missing`, `busy`, `disk-full`, `read-only`,
    /// `newer-version`, `unknown-version`, `needs-upgrade`, `upgrade-failed`, `not-a-database`,
    /// `damaged`, `not-a-library`, `io-error`, `error`.
    public var code: String {
        switch kind {
        case .missing: return "missing"
        case .busy: return "busy"
        case .diskFull, .notEnoughSpaceToUpgrade: return "disk-full"
        case .readOnly: return "read-only"
        case .newerVersion: return "newer-version"
        case .unknownVersion: return "unknown-version"
        case .upgradeRequired: return "needs-upgrade"
        case .upgradeFailed: return "upgrade-failed"
        case .damaged(.notADatabase): return "not-a-database"
        case .damaged(.corrupt): return "damaged"
        case .damaged(.notALibrary): return "not-a-library"
        case .ioError: return "io-error"
        case .other: return "error"
        }
    }

    /// A dialog title.
    public var title: TranslatableText {
        switch kind {
        case .missing: TranslatableText("No Library Here")
        case .busy: TranslatableText("The Library Is in Use")
        case .diskFull: TranslatableText("The Disk Is Full")
        case .notEnoughSpaceToUpgrade: TranslatableText("Not Enough Space to Upgrade")
        case .readOnly(.newerVersion), .newerVersion: TranslatableText("Library From a Newer Quire")
        case .readOnly: TranslatableText("The Library Is Read-Only")
        case .unknownVersion: TranslatableText("Unknown Library Format")
        case .upgradeRequired: TranslatableText("The Library Needs an Upgrade")
        case .upgradeFailed: TranslatableText("The Upgrade Did Not Finish")
        case .damaged(.notALibrary): TranslatableText("Not a Quire Library")
        case .damaged: TranslatableText("The Library Is Damaged")
        case .ioError: TranslatableText("The Disk Reported an Error")
        case .other: TranslatableText("Quire Could Not Use the Library")
        }
    }

    /// What happened and what happens next, for the writer (its English in ``description``).
    public var message: TranslatableText {
        let file = (path as NSString).lastPathComponent
        switch kind {
        case .missing:
            return TranslatableText("There is no Quire library at %s.", path)
        case .busy:
            return TranslatableText("Another Quire window or program is using %s, or upgrading it. Quire tried again for a few seconds. Close the other one, then try again.", file)
        case .diskFull(let available?):
            return TranslatableText("Quire cannot save to %1$s because the disk is full (%2$s free). Nothing you typed is lost: the editor keeps your text, and a copy is in the draft-rescue file. Free some space; Quire saves again as soon as it can.", file, Self.megabytes(available))
        case .diskFull(nil):
            return TranslatableText("Quire cannot save to %s because the disk is full. Nothing you typed is lost: the editor keeps your text, and a copy is in the draft-rescue file. Free some space; Quire saves again as soon as it can.", file)
        case .notEnoughSpaceToUpgrade(let required, let available):
            return TranslatableText("Upgrading %1$s for this version of Quire needs %2$s of free disk space, and %3$s are free. Nothing was changed. Free some space and open the library again.", file, Self.megabytes(required), Self.megabytes(available))
        case .readOnly(.permission):
            return TranslatableText("Quire may not change %s (the file or its folder is not writable for you). It is open read-only: you can read and export your articles, but not edit them.", file)
        case .readOnly(.readOnlyFileSystem):
            return TranslatableText("%s is on a disk that is mounted read-only. It is open read-only: you can read and export your articles, but not edit them.", file)
        case .readOnly(.newerVersion):
            return TranslatableText("%s was last used by a newer version of Quire. It is open read-only, so that nothing the newer version wrote can be lost: you can read and export your articles. Update Quire to edit them.", file)
        case .newerVersion(let found, let known):
            return TranslatableText("%1$s was written by a newer version of Quire (library format %2$d; this version knows up to %3$d), in a way this version cannot read. Nothing was changed. Update Quire to open it.", file, found, known)
        case .unknownVersion:
            return TranslatableText("%s has a library format this version of Quire does not know. Nothing was changed.", file)
        case .upgradeRequired(let from, let to):
            return TranslatableText("%1$s was made by an older Quire (library format %2$d) and must be upgraded to format %3$d before this version can use it. A backup of the old library is kept.", file, from, to)
        case .upgradeFailed:
            return TranslatableText("Quire could not upgrade %s. Your library was not changed and its old version is intact. The details say why; try again, and report the problem if it stays.", file)
        case .damaged(.notADatabase):
            return TranslatableText("%s is not a Quire library, or its first page is damaged. Quire can move it to the quarantine folder (nothing is deleted) and recover whatever it can read into a new library.", file)
        case .damaged(.corrupt):
            return TranslatableText("Part of %s is damaged. Quire can move the damaged file to the quarantine folder (nothing is deleted) and copy every article it can still read into a new library.", file)
        case .damaged(.notALibrary):
            return TranslatableText("%s is a database, but not a Quire library. Quire leaves it alone; choose another library.", file)
        case .ioError:
            return TranslatableText("Reading or writing %s failed with an error from the disk. Quire changed nothing; check the disk and try again.", file)
        case .other:
            return TranslatableText("Quire could not use %s.", file)
        }
    }

    /// What the writer can do, most useful first.
    public var remedies: [Remedy] {
        switch kind {
        case .missing, .unknownVersion, .damaged(.notALibrary), .other: return []
        case .busy, .upgradeFailed, .ioError: return [.retry]
        case .diskFull: return [.freeSpace]
        case .notEnoughSpaceToUpgrade: return [.freeSpace, .retry]
        case .readOnly: return [.export]
        case .newerVersion: return []
        case .upgradeRequired: return [.upgrade]
        case .damaged: return [.recover]
        }
    }

    public var description: String {
        detail.isEmpty ? message.english : "\(message.english) (\(detail))"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

extension LibraryProblem {
    /// The problem an error of a library operation stands for. Errors that are not about the
    /// store (validation, a missing article) become ``Kind/other``.
    public static func classify(_ error: any Error, path: String) -> LibraryProblem {
        let detail = String(describing: error)
        switch error {
        case let problem as LibraryProblem:
            return problem
        case LibraryError.noLibrary(let path):
            return LibraryProblem(.missing, path: path, detail: detail)
        case let error as StoreError:
            return LibraryProblem(kind(of: error, path: path), path: path, detail: detail)
        case let error as MigrationError:
            switch error {
            case .storeInUse: return LibraryProblem(.busy, path: path, detail: detail)
            case .insufficientSpace(_, let required, let available):
                return LibraryProblem(.notEnoughSpaceToUpgrade(required: required, available: available), path: path, detail: detail)
            case .storeNotWritable:
                let reason: ReadOnlyReason = StoreFiles.isReadOnlyFileSystem(at: path) ? .readOnlyFileSystem : .permission
                return LibraryProblem(.readOnly(reason), path: path, detail: detail)
            case .unknownSchema(let found, let current):
                return LibraryProblem(
                    found.version > current.version ? .newerVersion(found: found.version, known: current.version) : .unknownVersion,
                    path: path, detail: detail)
            case .customStageRequired, .invalidPlan, .storeChanged, .transformFailed, .validationFailed:
                return LibraryProblem(.upgradeFailed, path: path, detail: detail)
            }
        case let error as FileOperationError:
            return LibraryProblem(kind(ofSystemError: error.code, path: path), path: path, detail: detail)
        case let error as NSError where error.domain == NSPOSIXErrorDomain:
            return LibraryProblem(kind(ofSystemError: Int32(error.code), path: path), path: path, detail: detail)
        default:
            return LibraryProblem(.other, path: path, detail: detail)
        }
    }

    private static func kind(of error: StoreError, path: String) -> Kind {
        switch error.kind {
        case .busy: return .busy
        case .noSpace: return .diskFull(available: try? StoreFiles.availableSpace(at: (path as NSString).deletingLastPathComponent))
        case .permissionDenied: return .readOnly(.permission)
        case .readOnly:
            return .readOnly(StoreFiles.isReadOnlyFileSystem(at: path) ? .readOnlyFileSystem : .permission)
        case .notADatabase: return .damaged(.notADatabase)
        case .corrupt: return .damaged(.corrupt)
        case .notAnObjectGraphStore: return .damaged(.notALibrary)
        case .incompatibleSchema(let store, let model):
            return store.version > model.version ? .newerVersion(found: store.version, known: model.version)
                : .upgradeRequired(from: store.version, to: model.version)
        case .unsupportedFormat: return .unknownVersion
        case .ioError: return .ioError
        case .cannotOpen: return FileManager.default.fileExists(atPath: path) ? .ioError : .missing
        case .constraint, .other: return .other
        }
    }

    private static func kind(ofSystemError code: Int32, path: String) -> Kind {
        switch code {
        case ENOSPC, EDQUOT: return .diskFull(available: try? StoreFiles.availableSpace(at: (path as NSString).deletingLastPathComponent))
        case EACCES, EPERM: return .readOnly(.permission)
        case EROFS: return .readOnly(.readOnlyFileSystem)
        case ENOENT: return .missing
        default: return .ioError
        }
    }
}
