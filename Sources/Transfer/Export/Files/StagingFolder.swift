import Foundation
import Library

/// The hidden folder a one-file-per-article export writes into, inside the destination folder so that
/// its files can be renamed into place. Nothing shows in the destination until ``commit()``, which
/// puts every file on disk and then renames them all in; a failed or cancelled export is discarded
/// and leaves the destination as it was (a destination folder the export created is removed again).
///
/// If a rename fails part-way through the commit (a file of the same name appeared meanwhile), the
/// files already moved are removed again, so an export lands whole or not at all. Files it replaced
/// (with the caller's consent) cannot be brought back.
final class StagingFolder {
    private let destinationPath: String
    private let destination: Int32
    private let stagingPath: String
    private let staging: Int32
    private let replacing: Bool
    private let createdDestination: Bool
    private var stagedNames: [String] = []
    private var isFinished = false

    /// Prepares a staging folder in `destination`, creating the destination folder if it is missing.
    init(destination url: URL, replacing: Bool) throws {
        let path = url.standardizedFileURL.path
        destinationPath = path
        self.replacing = replacing
        switch try FileSystem.kind(at: path) {
        case S_IFDIR?:
            createdDestination = false
        case nil:
            let parent = url.standardizedFileURL.deletingLastPathComponent().path
            guard try FileSystem.kind(at: parent) == S_IFDIR else {
                throw ExportError.invalidDestination(path: path, reason: "the folder \(parent) does not exist")
            }
            guard mkdir(path, 0o777) == 0 else { throw ExportError.fileSystem(operation: "create folder", path: path, code: errno) }
            createdDestination = true
        default:
            throw ExportError.invalidDestination(path: path, reason: "it is a file, not a folder")
        }
        destination = try FileSystem.openDirectory(path)
        let stagingName = FileSystem.temporaryName(".quire-export-")
        stagingPath = path + "/" + stagingName
        guard mkdirat(destination, stagingName, 0o700) == 0 else {
            let code = errno
            close(destination)
            throw ExportError.fileSystem(operation: "create folder", path: stagingPath, code: code)
        }
        do {
            staging = try FileSystem.openDirectory(stagingPath)
        } catch {
            unlinkat(destination, stagingName, AT_REMOVEDIR)
            close(destination)
            throw error
        }
    }

    deinit {
        discard()
        close(staging)
        close(destination)
    }

    /// Whether the destination folder already holds an entry named `name`.
    func destinationContains(_ name: String) throws -> Bool {
        var status = stat()
        if fstatat(destination, name, &status, AT_SYMLINK_NOFOLLOW) == 0 { return true }
        guard errno == ENOENT else { throw ExportError.fileSystem(operation: "stat", path: destinationPath + "/" + name, code: errno) }
        return false
    }

    /// Creates the staged file `name`, after checking that the destination may receive that name.
    func createFile(named name: String) throws -> OutputFile {
        if !replacing, try destinationContains(name) { throw ExportError.destinationExists(path: destinationPath + "/" + name) }
        let file = try OutputFile(creatingAt: stagingPath + "/" + name)
        stagedNames.append(name)
        return file
    }

    /// Puts every staged file on disk and renames them into the destination; returns their URLs.
    func commit() throws -> [URL] {
        guard !isFinished else { return [] }
        var moved: [String] = []
        do {
            if try !FileSystem.synchronizeFileSystem(containing: staging, path: stagingPath) {
                for name in stagedNames { try synchronizeStagedFile(name) }
            }
            for name in stagedNames {
                try FileSystem.move(
                    from: staging, name, to: destination, name, replacing: replacing,
                    targetPath: destinationPath + "/" + name)
                moved.append(name)
            }
            try FileSystem.synchronizeDirectory(destination, path: destinationPath)
        } catch {
            for name in moved { unlinkat(destination, name, 0) }
            discard()
            throw error
        }
        isFinished = true
        stagedNames = []
        removeStagingFolder()
        let folder = URL(fileURLWithPath: destinationPath, isDirectory: true)
        return moved.map { folder.appendingPathComponent($0, isDirectory: false) }
    }

    /// Removes the staged files and the staging folder, and the destination folder if this export
    /// created it and it is still empty.
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        for name in stagedNames { unlinkat(staging, name, 0) }
        stagedNames = []
        removeStagingFolder()
        if createdDestination { rmdir(destinationPath) }
    }

    private func removeStagingFolder() {
        // Only fails if something else wrote into our hidden folder; then leaving it is the safe choice.
        rmdir(stagingPath)
    }

    private func synchronizeStagedFile(_ name: String) throws {
        let path = stagingPath + "/" + name
        let descriptor = openat(staging, name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.fileSystem(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ExportError.fileSystem(operation: "fsync", path: path, code: errno) }
    }
}
