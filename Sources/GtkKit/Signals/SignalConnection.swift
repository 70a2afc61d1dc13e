import CGtk

/// One connected signal handler. Disconnecting releases the handler's closure at once.
///
/// Dropping the connection does not disconnect it: handlers usually live as long as their
/// instance, which disconnects them when it is disposed. An owner whose handlers must not
/// outlive it keeps its connections in ``SignalConnections``.
@MainActor
public final class SignalConnection {
    private let instance: WeakObjectReference
    /// The id `g_signal_connect_data` returned.
    public let handlerID: UInt

    init(instance: UnsafeMutablePointer<GObject>, handlerID: UInt) {
        self.instance = WeakObjectReference(instance)
        self.handlerID = handlerID
    }

    /// Whether the handler is still connected: false after ``disconnect()`` and once the
    /// instance has been disposed.
    public var isConnected: Bool {
        instance.withObject { g_signal_handler_is_connected($0, handlerID) != 0 } ?? false
    }

    /// Disconnects the handler and releases its closure. Safe to call more than once and after
    /// the instance is gone.
    public func disconnect() {
        instance.withObject { object in
            if g_signal_handler_is_connected(object, handlerID) != 0 {
                g_signal_handler_disconnect(object, handlerID)
            }
        }
    }

    /// Keeps the connection in `connections`, which disconnects it when it is released.
    public func store(in connections: SignalConnections) {
        connections.insert(self)
    }
}
