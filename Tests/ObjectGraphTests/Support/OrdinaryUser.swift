import Foundation

/// Runs file work as an ordinary user meets it, also when the tests run as root (as CI does):
/// on a thread of its own whose file-system user is `nobody`. Linux keeps the file-system user
/// per thread, and a thread whose file-system user is not root loses the capabilities that let
/// root read and write any file, so permission bits apply to it as to anyone else.
enum OrdinaryUser {
    /// `nobody`, whose files these are not.
    static let nobody: uid_t = 65534

    /// Runs `body` on a new thread as `nobody` (as the current user when the process is not
    /// root: it cannot switch, and needs not) and returns what it returned.
    static func run<T>(_ body: @escaping @Sendable () -> T) -> T {
        nonisolated(unsafe) var result: T?
        let done = DispatchSemaphore(value: 0)
        Thread {
            if geteuid() == 0 {
                _ = setfsuid(nobody)
                // setfsuid answers the previous ID; an invalid one changes nothing and tells the current.
                precondition(setfsuid(uid_t.max) == nobody, "the thread's file-system user did not change")
            }
            result = body()
            done.signal()
        }.start()
        done.wait()
        return result!
    }
}

/// `setfsuid(2)`: sets the calling thread's file-system user ID and returns the previous one.
/// (Glibc declares it in <sys/fsuid.h>, which the Glibc module does not bring into Swift.)
@_silgen_name("setfsuid") private func setfsuid(_ fsuid: uid_t) -> Int32
