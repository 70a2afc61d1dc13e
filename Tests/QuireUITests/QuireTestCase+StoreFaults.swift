import CStoreFaults
import XCTest
import Foundation

extension QuireTestCase {
    /// A temporary folder whose SQLite files go through the fault VFS (CStoreFaults), so that
    /// `quire_faults_fail_writes_after(n)` makes writes there fail like a full disk; the VFS is
    /// reset when the test ends.
    func makeFolderWithStoreFaults() throws -> URL {
        let folder = try makeTemporaryFolder()
        XCTAssertEqual(quire_faults_install(), 0)
        quire_faults_set_prefix(folder.path)
        addTeardownBlock {
            quire_faults_fail_writes_after(-1)
            quire_faults_set_prefix(nil)
        }
        return folder
    }
}
