import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Descriptor numbers set aside for tests that check a descriptor is closed once: a second
/// `close` of a number closes whatever was opened on it since (another socket, a database file).
///
///     let number = ReservedDescriptor.number()
///     let listener = try LoopbackSocket(listeningWithBacklog: 16).moved(to: number)
///     // … the code under test closes `listener` …
///     let file = try ReservedDescriptor.openFile(on: number)
///     // … a second close must leave `file` open:
///     #expect(ReservedDescriptor.isOpen(file))
///
/// The numbers are the highest the process may open, counted down from its descriptor limit: each
/// `open` or `socket` takes the lowest free number, so these are the last any other descriptor
/// would get. (They started at 900 once, and a run of the server and client suites in parallel,
/// a thousand tests at once, held 901 already.) Each is handed out once, so that tests running at
/// the same time never land on one another's.
public enum ReservedDescriptor {
    private static let next = Mutex<Int32>(highest())

    /// A number no descriptor has, for one test.
    public static func number() -> Int32 {
        next.withLock { number in
            defer { number -= 1 }
            return number
        }
    }

    /// The highest number `dup2` accepts: one below the soft limit on open descriptors.
    private static func highest() -> Int32 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(Int32.max) else { return 1023 }
        return Int32(limit.rlim_cur) - 1
    }

    /// Puts a duplicate of `descriptor` on `number`, which must be free, and closes `descriptor`.
    public static func move(_ descriptor: Int32, to number: Int32) throws {
        guard !isOpen(number) else { throw ReservedDescriptorError(number: number, step: "taken", code: 0) }
        guard dup2(descriptor, number) == number else { throw ReservedDescriptorError(number: number, step: "dup2", code: errno) }
        Glibc.close(descriptor)
    }

    /// `/dev/null` opened on `number`, which must be free (its owner closed it): the file a
    /// second close of the number would close.
    public static func openFile(on number: Int32) throws -> Int32 {
        let file = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw ReservedDescriptorError(number: number, step: "open /dev/null", code: errno) }
        do {
            try move(file, to: number)
        } catch {
            Glibc.close(file)
            throw error
        }
        return number
    }

    /// Whether `descriptor` is open.
    public static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }
}

/// A reserved descriptor number that could not be used, with the step that failed.
public struct ReservedDescriptorError: Error, CustomStringConvertible {
    public let number: Int32
    /// `taken` (the number is open already), `dup2` or `open /dev/null`.
    public let step: String
    /// Its `errno` (0 for `taken`).
    public let code: Int32

    public var description: String { "descriptor \(number): \(step)" + (code == 0 ? "" : ": \(String(cString: strerror(code)))") }
}
