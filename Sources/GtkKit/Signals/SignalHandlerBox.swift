import CGtk

/// Holds a Swift signal handler for GLib: retained once when connected (`passRetained`) and
/// released by the closure's destroy notify, which GLib calls when the handler is disconnected
/// or its instance is disposed. The box therefore lives exactly as long as the connection.
final class SignalHandlerBox<Handler> {
    let handler: Handler

    init(_ handler: Handler) {
        self.handler = handler
    }

    /// The handler behind the `user_data` pointer a trampoline receives.
    static func handler(from data: gpointer?) -> Handler {
        Unmanaged<SignalHandlerBox<Handler>>.fromOpaque(data!).takeUnretainedValue().handler
    }
}

/// The `GClosureNotify` for every box: balances the `passRetained` of `connect`.
let releaseSignalHandlerBox: @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}
