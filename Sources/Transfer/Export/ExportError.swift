import Foundation
import Library

/// Why an export stopped. Cancellation is not an error: a cancelled job throws `CancellationError`.
public enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A file the export would write already exists and the caller did not consent to replacing it.
    case destinationExists(path: String)
    /// The destination cannot take this export (a file where a folder is needed, a missing parent).
    case invalidDestination(path: String, reason: String)
    /// A system call on a file failed.
    case fileSystem(operation: String, path: String, code: Int32)
    /// Cairo could not produce the PDF (its status text in `reason`).
    case pdfFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .destinationExists(let path):
            return "\(path) already exists (export again with overwriting allowed to replace it)"
        case .invalidDestination(let path, let reason):
            return "cannot export to \(path): \(reason)"
        case .fileSystem(let operation, let path, let code):
            return "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .pdfFailed(let path, let reason):
            return "cannot write the PDF \(path): \(reason)"
        }
    }
}
