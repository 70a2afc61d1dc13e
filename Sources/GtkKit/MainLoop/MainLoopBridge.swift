import CGtk
import Dispatch
import Glibc

// libdispatch's hooks for a foreign run loop that owns the main thread (CoreFoundation uses them).
@_silgen_name("_dispatch_get_main_queue_handle_4CF")
private func dispatchMainQueueHandle() -> Int32

@_silgen_name("_dispatch_main_queue_callback_4CF")
private func dispatchMainQueueCallback(_ message: UnsafeMutableRawPointer?)

/// Lets the main actor and `DispatchQueue.main` run while GLib's main loop owns the main thread.
///
/// Work for the main actor is queued on libdispatch's main queue, which signals an eventfd and
/// otherwise only drains inside `dispatchMain()`. The bridge watches that eventfd from the GLib
/// main context and drains the queue when it fires, so `Task { @MainActor in }` and `await`
/// hops work under `g_application_run`. `main` stays synchronous.
///
/// ``Application/run(arguments:)`` installs the bridge; code running its own GLib loop calls
/// ``install()`` first.
public enum MainLoopBridge {
    @MainActor private static var sourceID: guint = 0

    /// How often the bridge's callback ran, to check it does not spin.
    @MainActor static var callbackCount = 0

    /// Attaches the bridge to the default GLib main context. Later calls do nothing.
    @MainActor
    public static func install() {
        guard sourceID == 0 else { return }
        sourceID = g_unix_fd_add(dispatchMainQueueHandle(), G_IO_IN, { fd, _, _ in
            MainActor.assumeIsolated { MainLoopBridge.callbackCount += 1 }
            MainLoopBridge.drainEventCounter(fd)
            dispatchMainQueueCallback(nil)
            return 1  // G_SOURCE_CONTINUE
        }, nil)
    }

    /// Whether the bridge is attached.
    @MainActor public static var isInstalled: Bool { sourceID != 0 }

    /// Reads the eventfd until it is empty. The source is level-triggered: an unread counter
    /// would make GLib call back hundreds of times a second.
    private static func drainEventCounter(_ fd: Int32) {
        var counter: UInt64 = 0
        while true {
            let result = read(fd, &counter, MemoryLayout<UInt64>.size)
            if result > 0 || (result < 0 && errno == EINTR) { continue }
            return  // EAGAIN: empty
        }
    }
}
