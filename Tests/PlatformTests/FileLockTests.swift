import Foundation
import Platform
import QuireTestSupport
import Testing

/// `FileLock` against another process (util-linux `flock -n`, which fails while the lock is held).
@Suite struct FileLockTests {
    /// Whether another process could take the lock on `path` right now.
    func anotherProcessCanLock(_ path: String) throws -> Bool {
        try ProgramRun(URL(filePath: "/usr/bin/flock"), ["--nonblock", path, "true"]).status == 0
    }

    @Test func aHeldLockKeepsOthersOutUntilItIsReleased() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appending(path: "lock").path
        let lock = try #require(try FileLock(path: path))
        #expect(try FileLock(path: path) == nil, "a second lock, even in this process, is refused")
        #expect(try !anotherProcessCanLock(path))
        lock.release()
        lock.release()
        #expect(try anotherProcessCanLock(path))
        #expect(try FileLock(path: path) != nil)
    }

    @Test func aLockIsReleasedWhenItGoes() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appending(path: "lock").path
        do {
            let lock = try #require(try FileLock(path: path))
            #expect(try !anotherProcessCanLock(path))
            withExtendedLifetime(lock) {}
        }
        #expect(try anotherProcessCanLock(path))
    }

    @Test func aFolderThatCannotHoldTheFileIsAnError() throws {
        #expect(throws: FileOperationError.self) { try FileLock(path: "/proc/no-such-folder/lock") }
    }
}
