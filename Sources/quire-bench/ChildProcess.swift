import Foundation

/// A program a suite runs (`quire`, `Xvfb`, `xdotool`), started with `posix_spawn` and waited for
/// with `waitpid`.
///
/// Not Foundation's `Process`, for two reasons met in `app-start`:
/// - A suite runs on a Swift concurrency thread, where libdispatch blocks nearly every signal, and a
///   `Process` started there inherits that mask: an `Xvfb` blocking SIGTERM ignores `terminate()`
///   (and `waitUntilExit()` then waits forever), and `quire` never receives the SIGUSR1 that
///   starts its stall measurement again. A child here starts with no signal blocked and every
///   signal's default action.
/// - `Process` learns that a child ended through a SIGCHLD handler and a CFSocket run-loop source
///   serviced with `select()`, and `readDataToEndOfFile()` waits for every holder of the pipe,
///   grandchildren included. Here the child is reaped with `waitpid`, and reading its output stops
///   once it has ended, whoever else holds the pipe.
final class ChildProcess {
    /// The program and its arguments, for errors.
    let command: String
    let identifier: pid_t
    /// The read end of the child's standard output, or -1 when it goes to /dev/null.
    private var output: Int32 = -1
    /// Everything the child printed and ``readOutput(until:timeout:)`` has read so far.
    private(set) var text = ""
    /// The wait status once reaped.
    private var waitStatus: Int32?

    /// Starts `executable` with `arguments` and exactly `environment`; standard input is
    /// /dev/null, standard output is read by ``readOutput(until:timeout:)`` when `capturesOutput`,
    /// else /dev/null; standard error joins the captured output when `capturesErrors` (so that a
    /// failure of the child can say why), else /dev/null.
    init(
        _ executable: String, arguments: [String], environment: [String: String],
        capturesOutput: Bool = false, capturesErrors: Bool = false
    ) throws {
        command = ([executable] + arguments).joined(separator: " ")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if !(capturesOutput && capturesErrors) { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var pipeEnds: [Int32] = [-1, -1]
        if capturesOutput {
            guard pipe(&pipeEnds) == 0 else { throw ChildProcessError.system("pipe", errno, command) }
            // Close-on-exec: the child keeps only the copy made its standard output. (Suites start
            // children from one thread at a time, so no other spawn sees the ends in between.)
            for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            if capturesErrors { posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2) }
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        if capturesOutput { close(pipeEnds[1]) }
        guard result == 0 else {
            if capturesOutput { close(pipeEnds[0]) }
            throw ChildProcessError.system("posix_spawn", result, command)
        }
        identifier = pid
        output = pipeEnds[0]
    }

    /// Kills and reaps a child still running (a suite that failed half-way) and closes the pipe.
    deinit {
        if waitStatus == nil {
            kill(identifier, SIGKILL)
            var status: Int32 = 0
            waitpid(identifier, &status, 0)
        }
        if output >= 0 { close(output) }
    }

    /// Reads the child's standard output until it holds `marker` (nil: until the child ends) and
    /// returns everything read so far. Throws when `timeout` seconds pass first, or when the child
    /// ends without printing `marker`.
    @discardableResult
    func readOutput(until marker: String? = nil, timeout: Double) throws -> String {
        try readOutput(timeout: timeout, until: marker.map { marker in { $0.contains(marker) } })
        if let marker, !text.contains(marker) { throw ChildProcessError.noMarker(command, marker, text) }
        return text
    }

    /// Reads the child's standard output until `isComplete` holds for everything read so far (nil:
    /// until the child ends) and returns it; throws when `timeout` seconds pass first.
    @discardableResult
    func readOutput(timeout: Double, until isComplete: ((String) -> Bool)?) throws -> String {
        precondition(output >= 0, "the child's output is not captured")
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while isComplete.map({ !$0(text) }) ?? true {
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 50)
            if ready < 0 && errno != EINTR { throw ChildProcessError.system("poll", errno, command) }
            if ready > 0 {
                let count = read(output, &buffer, buffer.count)
                if count > 0 {
                    text += String(decoding: buffer[0..<count], as: UTF8.self)
                    continue
                }
                if count < 0 && errno != EINTR { throw ChildProcessError.system("read", errno, command) }
                if count == 0 { break }  // every writer closed the pipe
            } else if try hasEnded() {
                // A grandchild may hold the pipe open: what the child printed is in it already.
                drainOutput(into: &buffer)
                break
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else { throw ChildProcessError.timedOut(command, text) }
        }
        return text
    }

    /// Waits at most `timeout` seconds for the child to end and returns its exit status (128 plus
    /// the signal's number when a signal ended it); kills it and throws when it does not end.
    @discardableResult
    func waitForExit(timeout: Double) throws -> Int32 {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while try !hasEnded() {
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                kill(identifier, SIGKILL)
                _ = try? hasEnded(blocking: true)
                throw ChildProcessError.timedOut(command, text)
            }
            usleep(1000)
        }
        return exitStatus
    }

    /// Asks the child to end (SIGTERM), and kills it when it has not ended within five seconds.
    func terminate() {
        guard waitStatus == nil else { return }
        kill(identifier, SIGTERM)
        if (try? waitForExit(timeout: 5)) == nil { _ = try? hasEnded(blocking: true) }
    }

    /// The exit status of a reaped child.
    private var exitStatus: Int32 {
        guard let status = waitStatus else { preconditionFailure("the child has not been reaped") }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Reaps the child if it has ended; returns whether it has.
    private func hasEnded(blocking: Bool = false) throws -> Bool {
        if waitStatus != nil { return true }
        var status: Int32 = 0
        let result = waitpid(identifier, &status, blocking ? 0 : WNOHANG)
        if result == identifier {
            waitStatus = status
            return true
        }
        if result < 0 && errno != EINTR { throw ChildProcessError.system("waitpid", errno, command) }
        return false
    }

    /// Reads what the pipe holds now, without waiting for more.
    private func drainOutput(into buffer: inout [UInt8]) {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        while poll(&descriptor, 1, 0) > 0 {
            let count = read(output, &buffer, buffer.count)
            guard count > 0 else { return }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
    }
}

/// Why a suite's child process failed.
enum ChildProcessError: Error, CustomStringConvertible {
    case system(String, Int32, String)
    case timedOut(String, String)
    case noMarker(String, String, String)

    var description: String {
        switch self {
        case .system(let call, let code, let command): "\(call) failed for \(command): \(String(cString: strerror(code)))"
        case .timedOut(let command, let output): "\(command) did not finish in time; it printed: \(output)"
        case .noMarker(let command, let marker, let output): "\(command) ended without printing \(marker); it printed: \(output)"
        }
    }
}
