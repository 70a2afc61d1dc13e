import CSQLite
import CStoreFaults
import Foundation
import Testing

/// Ways tests damage or constrain a library file: flipped bytes in chosen pages, truncation, a
/// full disk (through the fault VFS; a real one is QuireTestSupport's `ScratchMount`), a read-only place.
enum StoreDamage {
    /// The pages of a table or index, as `dbstat` reports them (page numbers from 1, cells per page).
    static func pages(of name: String, type: String, in url: URL) throws -> [(page: Int, cells: Int)] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
            sqlite3_close(handle)
            throw DamageError(message: "cannot open \(url.path)")
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        let sql = "SELECT pageno, ncell FROM dbstat WHERE name = ? AND pagetype = ? ORDER BY pageno"
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw DamageError(message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_text(statement, 1, name, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        sqlite3_bind_text(statement, 2, type, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var pages: [(Int, Int)] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            pages.append((Int(sqlite3_column_int64(statement, 0)), Int(sqlite3_column_int64(statement, 1))))
        }
        return pages
    }

    /// Overwrites bytes of one page (4096-byte pages) with a pattern, after its first `skip` bytes.
    static func flipBytes(inPage page: Int, of url: URL, skip: Int = 0, count: Int = 4096) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((page - 1) * 4096 + skip))
        try handle.write(contentsOf: Data((0..<min(count, 4096 - skip)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 0x5A) }))
        try handle.synchronize()
    }

    /// Cuts the file after its first `pages` pages.
    static func truncate(_ url: URL, toPages pages: Int) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(pages * 4096))
    }

    struct DamageError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// The fault VFS, for one test at a time: writes to files under `folder` fail as on a full disk
/// after a number of writes, until ``release()``.
struct DiskFullFault {
    let folder: URL

    init(folder: URL) {
        #expect(quire_faults_install() == SQLITE_OK)
        self.folder = folder
        quire_faults_set_prefix(folder.path)
    }

    /// Every write from the `writes`-th one on fails with `SQLITE_FULL` (0: the next one).
    func failWrites(after writes: Int) { quire_faults_fail_writes_after(writes) }

    /// The disk has space again.
    func release() { quire_faults_fail_writes_after(-1) }

    /// Stops affecting the folder.
    func remove() {
        quire_faults_fail_writes_after(-1)
        quire_faults_set_prefix(nil)
    }

    /// Writes refused since the VFS was installed.
    var refusedWrites: Int { Int(quire_faults_refused_count()) }

    /// Writes to affected files since the VFS was installed.
    static var writes: Int { Int(quire_faults_write_count()) }
}
