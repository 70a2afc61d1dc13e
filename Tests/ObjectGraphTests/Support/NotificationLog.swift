import Foundation
import ObjectGraph
import Testing

/// Records what a context posts, for tests that look at notifications afterwards.
final class NotificationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var notifications: [ContextNotification] = []
    private var observation: ContextObservation?

    init(_ context: ManagedObjectContext) {
        observation = context.addObserver { [weak self] notification in
            guard let self else { return }
            self.lock.withLock { self.notifications.append(notification) }
        }
    }

    var all: [ContextNotification] { lock.withLock { notifications } }

    /// The `objectsDidChange` payloads, in order.
    var changes: [ObjectsDidChange] {
        all.compactMap { if case .objectsDidChange(let change) = $0 { return change } else { return nil } }
    }

    /// The kinds posted, in order: "change", "willSave", "didSave".
    var kinds: [String] {
        all.map {
            switch $0 {
            case .objectsDidChange: return "change"
            case .willSave: return "willSave"
            case .didSave: return "didSave"
            }
        }
    }

    func reset() { lock.withLock { notifications.removeAll() } }

    func stop() { observation?.cancel() }
}
