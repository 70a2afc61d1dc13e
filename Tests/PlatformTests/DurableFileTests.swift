import Foundation
import Platform
import QuireTestSupport
import Testing

@Suite struct DurableFileTests {
    @Test func aNewFileHoldsTheBytesWithItsModeFromTheStart() throws {
        let folder = try TemporaryFolder()
        let path = folder.appending("account").path
        try DurableFile.write(Data("token\n".utf8), to: path, mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "token\n")
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try folder.contents() == ["account"])
    }

    @Test func aReplacedFileHoldsOnlyTheNewBytes() throws {
        let folder = try TemporaryFolder()
        let path = folder.appending("manifest.json").path
        try DurableFile.write(Data(String(repeating: "old and longer ", count: 1000).utf8), to: path)
        try DurableFile.write(Data("new".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        try DurableFile.write(Data(), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
        #expect(try folder.contents() == ["manifest.json"])
    }

    /// The temporary file's name (the destination's and seven characters) is too long to create.
    @Test func aWriteThatCannotStartLeavesTheOldFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.appending(String(repeating: "n", count: 250)).path
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: FileOperationError.self) { try DurableFile.write(Data("new".utf8), to: path) }
        #expect(error.code == ENAMETOOLONG && error.path == path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try folder.contents().count == 1)
    }

    /// A child process whose files may not grow past 4 KiB writes 64 KiB: the write fails half
    /// done, as on a full disk, and the old file is still whole, with nothing left beside it.
    @Test func aWriteCutShortLeavesTheOldFileWhole() throws {
        let folder = try TemporaryFolder()
        let path = folder.appending("report.txt").path
        try DurableFile.write(Data("old report\n".utf8), to: path)
        let child = try TestBinary.run(filter: "DurableFileTests/writeUnderAFileSizeLimit", environment: [Self.pathVariable: path])
        #expect(child.status == 0, "\(child.output)")
        // The error kept the errno GLib folded into G_FILE_ERROR_FAILED.
        #expect(child.output.contains("failed with errno \(EFBIG)"), "\(child.output)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old report\n")
        #expect(try folder.contents() == ["report.txt"])
    }

    static let pathVariable = "PLATFORM_TESTS_DURABLE_FILE"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[pathVariable] != nil, "entry point of the child process that aWriteCutShortLeavesTheOldFileWhole starts"))
    func writeUnderAFileSizeLimit() throws {
        let path = try #require(ProcessInfo.processInfo.environment[Self.pathVariable])
        // Past the limit the kernel sends SIGXFSZ, which would end the process; ignored, the write fails with EFBIG.
        signal(SIGXFSZ, SIG_IGN)
        var limit = rlimit(rlim_cur: 4096, rlim_max: 4096)
        #expect(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0)
        let error = try #require(throws: FileOperationError.self) {
            try DurableFile.write(Data(repeating: UInt8(ascii: "x"), count: 65536), to: path)
        }
        print("failed with errno \(error.code)")
    }
}
