import Foundation
import Library

/// A file opened for writing, with a buffer so that exporters can write many small pieces cheaply.
///
/// It creates its file exclusively (`O_EXCL`): it never opens, truncates or follows a file that is
/// already there. Mode 0666 less the umask, like any new file.
final class OutputFile {
    /// The file's path.
    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var isClosed = false
    private static let bufferLimit = 1 << 16

    /// Creates the file at `path`, failing with `EEXIST` when anything is already there.
    init(creatingAt path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o666)
        guard descriptor >= 0 else { throw ExportError.fileSystem(operation: "create", path: path, code: errno) }
        self.path = path
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.bufferLimit)
    }

    deinit {
        if !isClosed { Glibc.close(descriptor) }
    }

    /// Appends bytes.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferLimit {
            try flush()
        }
        if bytes.count >= Self.bufferLimit {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    /// Appends the UTF-8 bytes of `text`.
    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { bytes in try write(UnsafeRawBufferPointer(bytes)) }
    }

    /// Appends data.
    func write(_ data: Data) throws {
        try data.withUnsafeBytes { bytes in try write(bytes) }
    }

    /// Writes out the buffer.
    func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { bytes in try writeAll(bytes) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes out the buffer and asks the kernel to put the file on disk.
    func synchronize() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw ExportError.fileSystem(operation: "fsync", path: path, code: errno) }
    }

    /// Writes out the buffer and closes the file.
    func close() throws {
        guard !isClosed else { return }
        defer { isClosed = true }
        try flush()
        guard Glibc.close(descriptor) == 0 else { throw ExportError.fileSystem(operation: "close", path: path, code: errno) }
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ExportError.fileSystem(operation: "write", path: path, code: errno)
            }
            offset += written
        }
    }
}
