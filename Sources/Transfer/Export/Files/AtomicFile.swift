import Foundation
import Library

/// One output file written atomically: the bytes go to a temporary file in the destination's folder,
/// which on ``commit()`` is flushed to disk (`fsync`) and renamed over the destination in one step.
/// Readers see the old file or the complete new one, never a part; a discarded or abandoned file
/// leaves nothing behind.
///
/// An existing destination is replaced only when the caller allowed it; otherwise the export fails
/// before writing anything, and again at the rename if a file appeared meanwhile.
final class AtomicFile {
    /// The file being written (the temporary one); write through it, then commit.
    let output: OutputFile
    /// Where the file appears on commit.
    let destination: URL
    private let destinationPath: String
    private let destinationName: String
    private let folderPath: String
    private let temporaryName: String
    private let replacing: Bool
    private var isFinished = false

    /// Starts writing a file that will appear at `destination`.
    init(destination: URL, replacing: Bool) throws {
        let destination = destination.standardizedFileURL
        self.destination = destination
        destinationPath = destination.path
        destinationName = destination.lastPathComponent
        folderPath = destination.deletingLastPathComponent().path
        self.replacing = replacing
        guard try FileSystem.kind(at: folderPath) == S_IFDIR else {
            throw ExportError.invalidDestination(path: destinationPath, reason: "the folder \(folderPath) does not exist")
        }
        switch try FileSystem.kind(at: destinationPath) {
        case nil: break
        case S_IFREG?, S_IFLNK?:
            guard replacing else { throw ExportError.destinationExists(path: destinationPath) }
        default:
            throw ExportError.invalidDestination(path: destinationPath, reason: "it is a folder or a special file")
        }
        temporaryName = FileSystem.temporaryName(".quire-export-")
        output = try OutputFile(creatingAt: folderPath + "/" + temporaryName)
    }

    deinit { discard() }

    /// Flushes the file to disk and renames it to the destination.
    func commit() throws {
        guard !isFinished else { return }
        do {
            try output.synchronize()
            try output.close()
            let folder = try FileSystem.openDirectory(folderPath)
            defer { close(folder) }
            try FileSystem.move(
                from: folder, temporaryName, to: folder, destinationName, replacing: replacing, targetPath: destinationPath)
            isFinished = true
            try FileSystem.synchronizeDirectory(folder, path: folderPath)
        } catch {
            discard()
            throw error
        }
    }

    /// Removes the temporary file; the destination is left as it was.
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        try? output.close()
        // Nothing else can be done about a temporary file that cannot be removed; it is hidden and named as ours.
        unlink(folderPath + "/" + temporaryName)
    }
}
