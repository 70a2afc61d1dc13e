import CSystemd
import Glibc
import SyncServer

/// What systemd learns of the service (`Type=notify`, through `sd_notify`): ready once it accepts
/// connections, reloading while SIGHUP is handled, stopping once shutdown begins. Without
/// `NOTIFY_SOCKET` (not started by systemd) each call does nothing. And the listening socket
/// systemd may pass (socket activation, `quire-server.socket`).
enum ServiceManager {
    static func ready(_ status: String) { notify("READY=1\nSTATUS=\(status)") }

    static func reloading() { notify("RELOADING=1") }

    static func stopping() { notify("STOPPING=1\nSTATUS=shutting down") }

    private static func notify(_ state: String) { _ = sd_notify(0, state) }

    /// The listening TCP socket systemd passed (`LISTEN_FDS`, `LISTEN_PID`), or nil when it passed
    /// none. The variables are unset, so that nothing this process starts takes them for its own.
    static func passedSocket() throws -> Int32? {
        let count = sd_listen_fds(1)
        guard count != 0 else { return nil }
        guard count > 0 else { throw ServerError.cannotListen("systemd's LISTEN_FDS: \(String(cString: strerror(-count)))") }
        guard count == 1 else {
            throw ServerError.cannotListen("systemd passed \(count) sockets; quire-server serves one (one ListenStream)")
        }
        let descriptor = SD_LISTEN_FDS_START
        guard sd_is_socket(descriptor, AF_UNSPEC, Int32(SOCK_STREAM.rawValue), 1) > 0 else {
            throw ServerError.cannotListen("the socket systemd passed is not a listening TCP socket")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
