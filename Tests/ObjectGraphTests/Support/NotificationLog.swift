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

/// Waits until `condition` holds, letting other work (the main queue's merges) run between checks.
/// The timeout only turns a hang into a failure; nothing asserts how long it took.
func eventually(
    isolation: isolated (any Actor)? = #isolation, timeout: Duration = .seconds(30),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try !condition() {
        guard clock.now < deadline else {
            Issue.record("the condition did not become true", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}
