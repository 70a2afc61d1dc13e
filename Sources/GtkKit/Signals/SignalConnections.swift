/// Signal connections that end with their owner: everything inserted is disconnected when the
/// set is released (or on ``disconnectAll()``), so no handler can fire after its owner died.
///
/// ```swift
/// final class ArticleRow {
///     private let connections = SignalConnections()
///     init(button: Widget) {
///         button.connect(.clicked) { [unowned self] in open() }.store(in: connections)
///     }
/// }
/// ```
@MainActor
public final class SignalConnections {
    private var connections: [SignalConnection] = []

    /// An empty set.
    public init() {}

    /// Adds a connection.
    public func insert(_ connection: SignalConnection) {
        connections.append(connection)
    }

    /// The number of connections held, connected or not.
    public var count: Int { connections.count }

    /// Disconnects every connection and forgets them.
    public func disconnectAll() {
        for connection in connections { connection.disconnect() }
        connections.removeAll()
    }

    isolated deinit {
        disconnectAll()
    }
}
