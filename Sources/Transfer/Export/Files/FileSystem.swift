import Foundation
import Library

/// The few file-system calls that atomic, no-clobber output needs and that Swift's Glibc module
/// does not import (they need `_GNU_SOURCE`): looked up once in the C library by name.
enum FileSystem {
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
    private typealias SyncFS = @convention(c) (Int32) -> Int32

    private static let renameAt2: RenameAt2? = symbol("renameat2")
    private static let syncFS: SyncFS? = symbol("syncfs")
    private static let renameNoReplace: UInt32 = 1

    private static func symbol<Function>(_ name: String) -> Function? {
        // A null handle is RTLD_DEFAULT: search the libraries the process already loaded.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    /// Moves `sourceName` in `sourceDirectory` to `targetName` in `targetDirectory` (directory file
    /// descriptors). With `replacing` false an existing target is never replaced: the move fails with
    /// ``ExportError/destinationExists(path:)`` and the source stays where it was.
    ///
    /// Without replacing it uses `renameat2(RENAME_NOREPLACE)`; where the file system lacks that, a
    /// hard link (which fails on an existing target) and an unlink; where links are not supported
    /// either (FAT, some network file systems), a check followed by a rename, which a process
    /// creating the same name in between could still race.
    static func move(
        from sourceDirectory: Int32, _ sourceName: String, to targetDirectory: Int32, _ targetName: String,
        replacing: Bool, targetPath: String
    ) throws {
        if replacing {
            guard renameat(sourceDirectory, sourceName, targetDirectory, targetName) == 0 else {
                throw ExportError.fileSystem(operation: "rename", path: targetPath, code: errno)
            }
            return
        }
        if let renameAt2 {
            if renameAt2(sourceDirectory, sourceName, targetDirectory, targetName, renameNoReplace) == 0 { return }
            let code = errno
            if code == EEXIST { throw ExportError.destinationExists(path: targetPath) }
            guard code == EINVAL || code == ENOSYS else { throw ExportError.fileSystem(operation: "rename", path: targetPath, code: code) }
        }
        if linkat(sourceDirectory, sourceName, targetDirectory, targetName, 0) == 0 {
            guard unlinkat(sourceDirectory, sourceName, 0) == 0 else {
                throw ExportError.fileSystem(operation: "unlink", path: sourceName, code: errno)
            }
            return
        }
        let code = errno
        if code == EEXIST { throw ExportError.destinationExists(path: targetPath) }
        guard code == EPERM || code == EOPNOTSUPP || code == EXDEV || code == EMLINK else {
            throw ExportError.fileSystem(operation: "link", path: targetPath, code: code)
        }
        var status = stat()
        if fstatat(targetDirectory, targetName, &status, AT_SYMLINK_NOFOLLOW) == 0 { throw ExportError.destinationExists(path: targetPath) }
        guard renameat(sourceDirectory, sourceName, targetDirectory, targetName) == 0 else {
            throw ExportError.fileSystem(operation: "rename", path: targetPath, code: errno)
        }
    }

    /// Flushes the whole file system that holds `directory` to disk (`syncfs`); returns `false` when
    /// the C library lacks the call, so that the caller syncs file by file instead.
    static func synchronizeFileSystem(containing directory: Int32, path: String) throws -> Bool {
        guard let syncFS else { return false }
        guard syncFS(directory) == 0 else { throw ExportError.fileSystem(operation: "syncfs", path: path, code: errno) }
        return true
    }

    /// Opens a directory for `*at` calls and `fsync`.
    static func openDirectory(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.fileSystem(operation: "open folder", path: path, code: errno) }
        return descriptor
    }

    /// Puts a directory's entries (a rename into it) on disk.
    static func synchronizeDirectory(_ descriptor: Int32, path: String) throws {
        // Some file systems cannot fsync a directory; their renames are as durable as they get.
        guard fsync(descriptor) == 0 || errno == EINVAL || errno == EROFS else {
            throw ExportError.fileSystem(operation: "fsync folder", path: path, code: errno)
        }
    }

    /// The kind of thing at `path` without following a final symbolic link, or `nil` when nothing is there.
    static func kind(at path: String) throws -> mode_t? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw ExportError.fileSystem(operation: "stat", path: path, code: errno)
        }
        return status.st_mode & S_IFMT
    }

    /// A random name for a temporary entry that no other process picks by chance.
    static func temporaryName(_ prefix: String) -> String {
        prefix + UUID().uuidString.prefix(13).lowercased()
    }
}
