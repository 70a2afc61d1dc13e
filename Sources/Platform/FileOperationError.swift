import Foundation

/// A system call on a file that failed, with its `errno`.
public struct FileOperationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call, such as `rename` or `link`.
    public var operation: String
    /// The file or folder.
    public var path: String
    /// The `errno` it failed with.
    public var code: Int32

    /// An error of `operation` on `path`.
    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// Whether this is a `link` the file system refuses (another device, no hard links, too many
    /// links, not permitted): the caller copies the file instead.
    public var refusesHardLink: Bool {
        [EXDEV, EPERM, EMLINK, ENOTSUP, EOPNOTSUPP].contains(code)
    }

    public var description: String {
        "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
