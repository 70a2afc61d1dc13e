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

    public var description: String {
        "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
}
