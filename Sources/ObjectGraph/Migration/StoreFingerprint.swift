import Foundation
import Platform

/// What identifies one state of a store file without reading it: its device, inode, size and
/// modification time, and the size of its write-ahead log.
///
/// A migration records the original's fingerprint when it copies it, and replaces the original
/// only while the fingerprint still matches: any write to the original since (by a program that
/// ignored the migration) changes its size or time and sends the migration back to a fresh copy.
struct StoreFingerprint: Codable, Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    /// The write-ahead log's size; 0 when there is none.
    var logSize: Int64

    /// The fingerprint of the file at `path` now.
    init(path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw FileOperationError(operation: "stat", path: path, code: errno) }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = Int64(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(status.st_mtim.tv_nsec)
        var log = stat()
        logSize = stat(path + "-wal", &log) == 0 ? Int64(log.st_size) : 0
    }

    /// The fingerprint as JSON text, as the working copy's metadata keeps it.
    var text: String {
        // Encoding integers cannot fail.
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }

    init?(text: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
}

/// A system call on a file that failed, with its `errno` (defined in Platform, which writes files
/// for every target; named here so that ObjectGraph's callers need no second import).
public typealias FileOperationError = Platform.FileOperationError
