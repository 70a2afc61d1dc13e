import CSystemd

/// What systemd learns of the service (`Type=notify`, through `sd_notify`): ready once it accepts
/// connections, reloading while SIGHUP is handled, stopping once shutdown begins. Without
/// `NOTIFY_SOCKET` (not started by systemd) each call does nothing.
enum ServiceManager {
    static func ready(_ status: String) { notify("READY=1\nSTATUS=\(status)") }

    static func reloading() { notify("RELOADING=1") }

    static func stopping() { notify("STOPPING=1\nSTATUS=shutting down") }

    private static func notify(_ state: String) { _ = sd_notify(0, state) }
}
