import Glibc
import Platform
import Testing

/// Sizes as the writer reads them, and which failed links mean "copy instead".
@Suite struct FileSizeTests {
    @Test func sizesAreWrittenInDecimalUnitsAsGNOMEShowsThem() {
        #expect(fileSizeText(0) == "0 bytes")
        #expect(fileSizeText(1) == "1 byte")
        #expect(fileSizeText(1_500) == "1.5\u{00A0}kB")
        #expect(fileSizeText(25 * 1024 * 1024) == "26.2\u{00A0}MB", "GLib puts a no-break space between number and unit")
        #expect(fileSizeText(-5) == "0 bytes", "a negative count is nothing, not a huge unsigned number")
    }

    @Test func onlyALinkTheFileSystemRefusesIsCopiedInstead() {
        for code in [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP] {
            #expect(FileOperationError(operation: "link", path: "/x", code: code).refusesHardLink)
        }
        for code in [ENOENT, EEXIST, EIO, ENOSPC, EACCES] {
            #expect(!FileOperationError(operation: "link", path: "/x", code: code).refusesHardLink)
        }
    }
}
