import Foundation
import Glibc
import Synchronization

/// Where the log's lines go: standard error (journald reads it under systemd) or a file the
/// server appends to. `reopen` opens the file again by name, so that after logrotate moved it
/// away (SIGHUP from its postrotate) the lines go to a new file of that name.
public final class LogOutput: Sendable {
    /// The file's path, nil for standard error.
    public var path: String? { state.withLock { $0.path } }

    private let state: Mutex<(path: String?, descriptor: Int32)>

    /// Standard error, or the file at `path` (created 0640, appended to).
    public init(path: String?) throws {
        state = Mutex((path, try Self.open(path)))
    }

    /// Opens `path` (nil: standard error) and writes the lines from now on there; the file
    /// written until now is closed. When `path` cannot be opened it throws and nothing changes.
    public func reopen(path: String?) throws {
        let descriptor = try Self.open(path)
        let old = state.withLock { state in
            defer { state = (path, descriptor) }
            return state.descriptor
        }
        if old != STDERR_FILENO { close(old) }
    }

    /// Appends `line` and a newline, whole: lines from several threads never interleave.
    func write(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        state.withLock { state in
            bytes.withUnsafeMutableBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc.write(state.descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0, errno == EINTR { continue }
                    // A full disk or a closed descriptor: the line is lost, the request is not.
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }

    deinit {
        let descriptor = state.withLock { $0.descriptor }
        if descriptor != STDERR_FILENO { close(descriptor) }
    }

    private static func open(_ path: String?) throws -> Int32 {
        guard let path else { return STDERR_FILENO }
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o640)
        guard descriptor >= 0 else {
            throw ServerError.logFile("cannot open the log file \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
