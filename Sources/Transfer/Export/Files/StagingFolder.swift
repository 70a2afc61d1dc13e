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
///
/// A name may have one folder in front of it (`assets/diagram.png`, ``ExportAssets``): that folder is
/// made in the staging folder, and in the destination on commit unless it is there already (a
/// symbolic link there is refused, so nothing lands outside the destination).
final class StagingFolder {
    private let destinationPath: String
    private let destination: Int32
    private let stagingPath: String
    private let staging: Int32
    private let replacing: Bool
    private let createdDestination: Bool
    private var stagedNames: [String] = []
    private var stagedFolders: [String] = []
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
        if let folder = Self.folder(of: name), !stagedFolders.contains(folder) {
            guard mkdirat(staging, folder, 0o700) == 0 else {
                throw ExportError.fileSystem(operation: "create folder", path: stagingPath + "/" + folder, code: errno)
            }
            stagedFolders.append(folder)
        }
        let file = try OutputFile(creatingAt: stagingPath + "/" + name)
        stagedNames.append(name)
        return file
    }

    /// Puts every staged file on disk and renames them into the destination; returns their URLs.
    func commit() throws -> [URL] {
        guard !isFinished else { return [] }
        var moved: [String] = []
        var createdFolders: [String] = []
        do {
            for folder in stagedFolders where try makeDestinationFolder(folder) { createdFolders.append(folder) }
            if try !FileSystem.synchronizeFileSystem(containing: staging, path: stagingPath) {
                for name in stagedNames { try synchronizeStagedFile(name) }
            }
            for name in stagedNames {
                try FileSystem.move(
                    from: staging, name, to: destination, name, replacing: replacing,
                    targetPath: destinationPath + "/" + name)
                moved.append(name)
            }
            for folder in stagedFolders { try synchronizeDestinationFolder(folder) }
            try FileSystem.synchronizeDirectory(destination, path: destinationPath)
        } catch {
            for name in moved { unlinkat(destination, name, 0) }
            for folder in createdFolders { unlinkat(destination, folder, AT_REMOVEDIR) }
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
        for folder in stagedFolders { unlinkat(staging, folder, AT_REMOVEDIR) }
        stagedFolders = []
        // Only fails if something else wrote into our hidden folder; then leaving it is the safe choice.
        rmdir(stagingPath)
    }

    /// The folder in front of a staged name, if it has one.
    private static func folder(of name: String) -> String? {
        name.firstIndex(of: "/").map { String(name[..<$0]) }
    }

    /// Makes `folder` in the destination unless it is a folder there already; returns whether it
    /// made it.
    private func makeDestinationFolder(_ folder: String) throws -> Bool {
        if mkdirat(destination, folder, 0o777) == 0 { return true }
        let path = destinationPath + "/" + folder
        guard errno == EEXIST else { throw ExportError.fileSystem(operation: "create folder", path: path, code: errno) }
        var status = stat()
        guard fstatat(destination, folder, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw ExportError.invalidDestination(path: path, reason: "it is not a folder")
        }
        return false
    }

    private func synchronizeDestinationFolder(_ folder: String) throws {
        let path = destinationPath + "/" + folder
        let descriptor = openat(destination, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.fileSystem(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        try FileSystem.synchronizeDirectory(descriptor, path: path)
    }

    private func synchronizeStagedFile(_ name: String) throws {
        let path = stagingPath + "/" + name
        let descriptor = openat(staging, name, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.fileSystem(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw ExportError.fileSystem(operation: "fsync", path: path, code: errno) }
    }
}
