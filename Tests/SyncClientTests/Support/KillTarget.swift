import Glibc
import Synchronization

/// A `quire sync` to kill with SIGKILL as its k-th request arrives, from the proxy's own thread
/// (`FaultProxy.onRequest`), so that the kill lands at that request however long the test's tasks
/// wait for a thread: killed once, as soon as both its process exists and its request has
/// arrived, whichever comes first.
///
///     let target = KillTarget()
///     proxy.onRequest { number in if number == before + k { target.kill() } }
///     let sync = try KilledSyncTests.startSync(device, port: proxy.port, token: token)
///     target.arm(sync.processIdentifier)
///     await sync.exited()
///     proxy.onRequest(nil)
final class KillTarget: Sendable {
    private let state = Mutex<(process: pid_t?, due: Bool, killed: Bool)>((nil, false, false))

    /// The process started.
    func arm(_ process: pid_t) {
        state.withLock { state in
            state.process = process
            if state.due { state.killed = state.killed || Glibc.kill(process, SIGKILL) == 0 }
        }
    }

    /// Its request arrived.
    func kill() {
        state.withLock { state in
            state.due = true
            if let process = state.process, !state.killed { state.killed = Glibc.kill(process, SIGKILL) == 0 }
        }
    }

    /// Whether the process was killed.
    var killed: Bool { state.withLock { $0.killed } }
}
