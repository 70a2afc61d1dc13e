import Foundation

/// The file operations a migration and a recovery need, as system calls with typed errors: every
/// rename and link is followed by a sync of the folder, so that it survives a power loss.
public enum StoreFiles {
    /// The bytes free for an unprivileged writer on the file system holding `path` (`statvfs`).
    public static func availableSpace(at path: String) throws -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw FileOperationError(operation: "statvfs", path: path, code: errno) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Whether the file system holding `path` is mounted read-only.
    public static func isReadOnlyFileSystem(at path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// The disk space the files take (allocated blocks, so sparse and hard-linked files count as
    /// they cost); missing files count as 0.
    public static func allocatedSize(of paths: [String]) -> Int64 {
        var seen = Set<[UInt64]>()
        var total: Int64 = 0
        for path in paths {
            var status = stat()
            guard stat(path, &status) == 0, seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { continue }
            total += Int64(status.st_blocks) * 512
        }
        return total
    }

    /// The size of a file in bytes, or nil when it does not exist.
    static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates a folder (and its parents) if it is missing.
    static func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw FileOperationError(operation: "mkdir", path: path, code: (error as NSError).underlyingErrorCode ?? EIO)
        }
    }

    /// Renames within one file system, atomically, and syncs the folders involved.
    public static func move(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw FileOperationError(operation: "rename", path: from, code: errno) }
        try synchronizeFolder(of: to)
        if folder(of: from) != folder(of: to) { try synchronizeFolder(of: from) }
    }

    /// Makes `to` a second name of the file `from` (no copy), and syncs the folder.
    static func link(_ from: String, to: String) throws {
        guard Foundation.link(from, to) == 0 else { throw FileOperationError(operation: "link", path: to, code: errno) }
        try synchronizeFolder(of: to)
    }

    /// Removes a file if it exists; only for files ObjectGraph (or its caller) made itself, never a user's.
    public static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileOperationError(operation: "unlink", path: path, code: errno) }
    }

    /// Writes a file's data to disk (`fsync`).
    static func synchronizeFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileOperationError(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw FileOperationError(operation: "fsync", path: path, code: errno) }
    }

    /// Writes a folder's entries to disk, so that a rename or link in it survives a power loss.
    static func synchronizeFolder(of path: String) throws {
        try synchronizeFile(folder(of: path))
    }

    static func folder(of path: String) -> String {
        (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
    }
}

extension NSError {
    /// The POSIX code behind a Foundation file error, when there is one.
    var underlyingErrorCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingErrorCode
    }
}
