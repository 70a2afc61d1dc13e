import CGLib
import Foundation

/// Replacing a whole file so that a crash or power loss at any moment leaves either the old file or
/// the complete new one: GLib's `g_file_set_contents_full` with `CONSISTENT | DURABLE`, which
/// writes a temporary file beside the destination (every byte, retrying short writes), syncs it,
/// renames it over the destination and syncs the folder. A write that fails removes the temporary
/// file and leaves the destination as it was.
///
///     try DurableFile.write(Data(json.utf8), to: settingsPath, mode: 0o600)
public enum DurableFile {
    /// Replaces the file at `path` with `data`. A new file gets `mode` from the start (a file of
    /// secrets is never readable by others, not even briefly); an existing file's mode is replaced
    /// by it too, since the new file is a new inode.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws(FileOperationError) {
        var failure: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBytes { bytes in
            g_file_set_contents_full(
                path, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), gssize(bytes.count),
                GFileSetContentsFlags(rawValue: G_FILE_SET_CONTENTS_CONSISTENT.rawValue | G_FILE_SET_CONTENTS_DURABLE.rawValue),
                Int32(mode), &failure)
        }
        guard written == 0 else { return }
        defer { g_error_free(failure) }
        throw FileOperationError(operation: "write", path: path, code: failure.map(errorNumber(of:)) ?? EIO)
    }

    /// The `errno` behind a GLib file error. GLib folds `errno` into a `GFileError` (`EDQUOT` and
    /// `EFBIG` both become `G_FILE_ERROR_FAILED`) but ends its message with the `g_strerror` text
    /// of the original, so the number whose text ends the message and that folds into the same
    /// kind is the one: a full quota must still read as a full disk to the writer.
    private static func errorNumber(of error: UnsafeMutablePointer<GError>) -> Int32 {
        guard error.pointee.domain == g_file_error_quark() else { return EIO }
        let message = String(cString: error.pointee.message)
        return (Int32(1)..<256).first { code in
            Int32(g_file_error_from_errno(code).rawValue) == error.pointee.code && message.hasSuffix(String(cString: g_strerror(code)))
        } ?? EIO
    }
}
