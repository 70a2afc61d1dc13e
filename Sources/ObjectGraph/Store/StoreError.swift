import CSQLite
import Foundation

/// A store that failed to open, read or write, classified so the caller can choose what to do
/// (retry, read-only, quarantine, tell the writer), with SQLite's own result code and the statement.
///
/// A failed open never rewrites or deletes the file.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a recovery decision needs.
    public enum Kind: Sendable, Hashable {
        /// Another connection holds a lock longer than the busy timeout (`SQLITE_BUSY`, `SQLITE_LOCKED`).
        case busy
        /// The disk or the database size limit is full (`SQLITE_FULL`).
        case noSpace
        /// The process may not read or write the file or its folder.
        case permissionDenied
        /// The store or its file system is read-only (`SQLITE_READONLY`).
        case readOnly
        /// The file is not a SQLite database (`SQLITE_NOTADB`).
        case notADatabase
        /// The database is damaged (`SQLITE_CORRUPT`).
        case corrupt
        /// The file could not be opened for another reason (a missing folder, for example).
        case cannotOpen
        /// The operating system reported an I/O error (`SQLITE_IOERR`).
        case ioError
        /// A SQLite constraint refused the write.
        case constraint
        /// The store was written with a schema whose checksum differs from the model's; migration
        /// is needed (or the store is newer than this program).
        case incompatibleSchema(store: SchemaVersion, model: SchemaVersion)
        /// A SQLite database with tables but without ObjectGraph's metadata: not ours to touch.
        case notAnObjectGraphStore
        /// ObjectGraph's own tables have a layout newer than this build understands.
        case unsupportedFormat(found: Int, supported: Int)
        /// Anything else SQLite reports.
        case other
    }

    /// What went wrong, classified.
    public var kind: Kind
    /// SQLite's extended result code, or 0 when the error did not come from SQLite.
    public var resultCode: Int32
    /// SQLite's message (or ObjectGraph's, for errors of its own).
    public var message: String
    /// The statement that failed, when there was one.
    public var statement: String?
    /// The store file, when the store has one.
    public var path: String?

    /// An error; ObjectGraph makes these, and tests of code handling them may too.
    public init(kind: Kind, resultCode: Int32 = 0, message: String, statement: String? = nil, path: String? = nil) {
        self.kind = kind
        self.resultCode = resultCode
        self.message = message
        self.statement = statement
        self.path = path
    }

    public var description: String {
        var text = "store error (\(kind)): \(message)"
        if resultCode != 0 { text += " [SQLite \(resultCode)]" }
        if let statement { text += " in \(statement)" }
        if let path { text += " (\(path))" }
        return text
    }
}

extension StoreError.Kind {
    /// Classifies a SQLite result code; `systemError` (SQLite's `errno`) tells a permission problem
    /// from other failures to open.
    public static func classify(resultCode: Int32, systemError: Int32 = 0) -> StoreError.Kind {
        switch resultCode & 0xff {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_FULL: return .noSpace
        case SQLITE_PERM, SQLITE_AUTH: return .permissionDenied
        case SQLITE_READONLY: return .readOnly
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_CANTOPEN:
            return systemError == EACCES || systemError == EPERM ? .permissionDenied
                : systemError == EROFS ? .readOnly : .cannotOpen
        case SQLITE_IOERR:
            if systemError == ENOSPC { return .noSpace }
            if systemError == EACCES || systemError == EPERM { return .permissionDenied }
            return .ioError
        case SQLITE_CONSTRAINT: return .constraint
        default: return .other
        }
    }
}

/// A schema's version number and structural checksum, as a store records them.
public struct SchemaVersion: Sendable, Hashable, CustomStringConvertible {
    /// The number the schema's author gave it.
    public var version: Int
    /// ``Schema/checksum``.
    public var checksum: String

    /// A version and checksum, as a store records them.
    public init(version: Int, checksum: String) {
        self.version = version
        self.checksum = checksum
    }

    public var description: String { "version \(version) (\(checksum.prefix(12)))" }
}

/// Extended result codes that do not import from the C header (they are macro expressions).
enum SQLiteCode {
    static let constraintForeignKey: Int32 = 787
    static let constraintPrimaryKey: Int32 = 1555
    static let constraintUnique: Int32 = 2067
}
