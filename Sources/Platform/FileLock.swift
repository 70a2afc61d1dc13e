import Glibc
import Synchronization

/// An exclusive advisory lock on a file (`flock`), held until ``release()``, until the lock is
/// freed, or until the process ends: so that two processes never migrate one store, or serve one
/// data folder, at once.
public final class FileLock: Sendable {
    private let descriptor: Mutex<Int32?>

    /// Takes the lock on `path` (created with `mode` if missing), or returns nil when another
    /// process holds it.
    public init?(path: String, mode: mode_t = 0o644) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw FileOperationError(operation: "open", path: path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw FileOperationError(operation: "flock", path: path, code: code)
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Gives the lock up now (a second call does nothing). It is unlocked before its descriptor
    /// is closed: a child process another thread is starting holds a copy of the descriptor until
    /// it execs, and closing ours alone leaves the lock held for that long (a server restarted in
    /// that moment found its own folder "in use").
    public func release() {
        descriptor.withLock { descriptor in
            guard let open = descriptor else { return }
            flock(open, LOCK_UN)
            close(open)
            descriptor = nil
        }
    }

    deinit { release() }
}
