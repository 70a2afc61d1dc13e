import Foundation
import Platform

/// The folder beside a store file that holds the large values of binary attributes declared with
/// an ``AttributeDescription/externalStorageThreshold``: one file per distinct value, named by the
/// SHA-256 of its bytes, so that equal values share one file and a file's name says what it must
/// hold. The row keeps the reference `sha256:<digest>` as text where it would keep the bytes.
///
/// `store.sqlite` keeps its files in `store.sqlite.external/`. A file is written whole and
/// durably (``DurableFile``: temporary file, sync, rename, sync of the folder) inside the write
/// transaction whose rows refer to it, before that transaction commits; files are removed only by
/// ``PersistentStore/collectExternalBinaries()``, which holds the store's write lock, so it never
/// sees a save between writing its file and committing its row.
public struct ExternalBinaryFolder: Sendable, Hashable {
    /// The folder.
    public let url: URL

    /// The folder of the store at `store`.
    public init(store: URL) {
        url = URL(fileURLWithPath: store.path + Self.suffix, isDirectory: true)
    }

    /// What the folder's name adds to the store file's.
    public static let suffix = ".external"
    /// How a row's text begins when the value lives in this folder.
    public static let referencePrefix = "sha256:"

    /// The digest a stored value refers to, when it is a reference (nil for bytes kept in the row).
    public static func digest(inReference value: PrimitiveValue) -> String? {
        guard case .string(let text) = value, text.hasPrefix(referencePrefix) else { return nil }
        let digest = String(text.dropFirst(referencePrefix.count))
        return isDigest(digest) ? digest : nil
    }

    /// The value a row keeps for bytes with `digest`.
    static func reference(to digest: String) -> PrimitiveValue { .string(referencePrefix + digest) }

    /// Whether `name` is 64 lowercase hexadecimal digits, the only names of stored values.
    static func isDigest(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The file holding the value with `digest`.
    public func path(of digest: String) -> String { url.appendingPathComponent(digest).path }

    /// Makes sure a file holds `data`, and returns its digest. An existing file with the right
    /// bytes is kept as it is; a missing or damaged one is written again, durably.
    func store(_ data: Data) throws -> String {
        let digest = SHA256.hex(data)
        let path = path(of: digest)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return digest }
        if !StoreFiles.exists(url.path) {
            try StoreFiles.createFolder(url.path)
            try StoreFiles.synchronizeFolder(of: url.path)
        }
        ExternalBinaryPoint.reach("store.begun")
        try DurableFile.write(data, to: path)
        ExternalBinaryPoint.reach("store.written")
        return digest
    }

    /// The bytes with `digest`, checked against it.
    public func contents(of digest: String) throws(ExternalBinaryError) -> Data {
        let path = path(of: digest)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ExternalBinaryError(kind: StoreFiles.exists(path) ? .unreadable : .missing, digest: digest, path: path)
        }
        guard SHA256.hex(data) == digest else { throw ExternalBinaryError(kind: .damaged, digest: digest, path: path) }
        return data
    }

    /// Gives every value file of this folder a second name in `other` (a hard link: no copy; a
    /// copy where links are not possible), so that a backup or a quarantined copy of the store
    /// keeps the values its rows refer to whatever later happens to this folder. Files `other`
    /// already has are left as they are; nothing here is removed.
    public func keepValues(in other: ExternalBinaryFolder) throws {
        let names = try fileNames().filter(Self.isDigest)
        guard !names.isEmpty else { return }
        try StoreFiles.createFolder(other.url.path)
        for name in names where !StoreFiles.exists(other.path(of: name)) {
            do {
                try StoreFiles.link(path(of: name), to: other.path(of: name))
            } catch let error as FileOperationError where error.refusesHardLink {
                guard let data = FileManager.default.contents(atPath: path(of: name)) else {
                    throw FileOperationError(operation: "read", path: path(of: name), code: EIO)
                }
                try DurableFile.write(data, to: other.path(of: name))
            }
        }
        try StoreFiles.synchronizeFolder(of: other.url.path)
    }

    /// The names in the folder (none when it does not exist).
    func fileNames() throws -> [String] {
        guard StoreFiles.exists(url.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            throw FileOperationError(operation: "list", path: url.path, code: (error as NSError).underlyingErrorCode ?? EIO)
        }
    }
}

/// A value kept outside the database that cannot be read back as it was saved.
public struct ExternalBinaryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Kind: Sendable, Hashable {
        /// No file has the value's digest.
        case missing
        /// The file is there but cannot be read (permissions, an I/O error).
        case unreadable
        /// The file's bytes no longer have the digest they were saved with.
        case damaged
    }

    /// What is wrong with the file.
    public var kind: Kind
    /// The SHA-256 the value was saved with.
    public var digest: String
    /// The file that should hold it.
    public var path: String

    /// The error of the file at `path` that should hold the value with `digest`.
    public init(kind: Kind, digest: String, path: String) {
        self.kind = kind
        self.digest = digest
        self.path = path
    }

    public var description: String {
        switch kind {
        case .missing: return "the stored file \(path) is missing"
        case .unreadable: return "the stored file \(path) cannot be read"
        case .damaged: return "the stored file \(path) is damaged (its bytes changed after it was saved)"
        }
    }
}

/// The named points a save and a collection of external values pass, for tests that kill the
/// process at each one (as a crash or power cut would stop it: no cleanup runs).
///
/// With `OBJECTGRAPH_EXTERNAL_KILL_AT=NAME` the process kills itself with SIGKILL on reaching NAME:
/// `store.begun` (before a file is written), `store.written` (after it, before the row),
/// `collect.listed` (references and files read), `collect.removed.N` (after the N-th removal).
enum ExternalBinaryPoint {
    static let killVariable = "OBJECTGRAPH_EXTERNAL_KILL_AT"
    private static let killPoint = ProcessInfo.processInfo.environment[killVariable]

    /// Marks that the process reached `name`.
    static func reach(_ name: @autoclosure () -> String) {
        guard let killPoint, name() == killPoint else { return }
        kill(getpid(), SIGKILL)
    }
}
