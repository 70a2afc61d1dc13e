import Foundation
import Glibc
import QuireTestSupport
import Testing

/// A private D-Bus session bus for one test (`dbus-daemon --nofork`), optionally without any
/// activatable service; stopped (by its process ID) when the test is done.
final class SessionBus: Sendable {
    let address: String
    private let process: Process
    private let folder: URL

    /// Starts a bus; with `activatableServices` false it knows no service files, so that nothing
    /// (no Secret Service) can be started on it.
    init(activatableServices: Bool) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        if activatableServices {
            process.arguments = ["--session", "--nofork", "--print-address=1"]
        } else {
            let config = folder.appendingPathComponent("bus.conf")
            try """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>session</type>
                  <listen>unix:tmpdir=\(folder.path)</listen>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                  </policy>
                </busconfig>
                """.write(to: config, atomically: true, encoding: .utf8)
            process.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the address, printed once the bus listens.
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        address = String(decoding: line, as: UTF8.self)
        guard !address.isEmpty else { throw ProxyError("dbus-daemon printed no address") }
    }

    /// Waits until `name` has an owner on the bus (a daemon that forked may still be registering
    /// when its launcher exits); fails after `timeout` seconds.
    func waitUntilOwned(_ name: String, timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let reply = try ProgramRun(URL(fileURLWithPath: "/usr/bin/gdbus"), [
                "call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", name,
            ])
            if reply.output.contains("true") { return }
            guard Date() < deadline else { throw ProxyError("nothing owns \(name) on the test bus after \(Int(timeout)) s") }
            usleep(50_000)
        }
    }

    /// Stops the bus (dbus-daemon ignores SIGTERM); a keyring daemon on it exits with it.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs the `quire` built beside the tests with `arguments` and environment changes (nil removes
/// a variable), on a thread of its own (`BlockingWork`).
func runQuire(_ arguments: [String], environment: [String: String?], input: String? = nil) async throws -> ProgramRun {
    let quire: URL = try #require(KilledSyncTests.executable, "quire is not built beside the tests")
    return try await BlockingWork.run { try ProgramRun(quire, arguments, environment: environment, input: input.map { Data($0.utf8) }) }
}

/// Runs a program that forks a daemon and waits for the program alone; answers its exit status.
/// Foundation's `Process` cannot be used: it waits until every process that inherited its exit
/// socket is gone, and the daemon keeps it.
func runDaemonizing(_ path: String, _ arguments: [String], environment: [String: String], input: String) throws -> Int32 {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw ProxyError("pipe failed: errno \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
    posix_spawn_file_actions_addclose(&actions, fds[1])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
    close(fds[0])
    guard spawned == 0 else {
        close(fds[1])
        throw ProxyError("could not start \(path): errno \(spawned)")
    }
    let bytes = Array(input.utf8)
    _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    close(fds[1])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status >> 8) & 0xff
}
