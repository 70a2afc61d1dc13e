import Foundation

/// The serial executor of a context: the main queue for the view context, a private serial queue
/// for every other. It also knows, per thread, which contexts are running there, which is how
/// wrong-thread use is detected and how `performAndWait` re-enters without deadlock.
final class ContextQueue: Sendable {
    enum Kind: Sendable {
        case main
        case privateQueue(DispatchQueue)
    }

    let kind: Kind
    /// The dispatch queue that runs the context's work. Held as a plain value so that work sent to
    /// the main queue is not treated as main-actor code: it is the context's code, checked by
    /// `isCurrent`.
    private let dispatchQueue: DispatchQueue

    init(kind: Kind) {
        self.kind = kind
        switch kind {
        case .main: dispatchQueue = DispatchQueue.main
        case .privateQueue(let queue): dispatchQueue = queue
        }
    }

    var isMain: Bool {
        if case .main = kind { return true }
        return false
    }

    /// Whether the calling thread may use the context now. The view context may be used on the
    /// main thread and by any work the main queue runs: in a program with an async `main` (and in
    /// `swift test`), libdispatch drains the main queue, and so runs the main actor, on a thread
    /// other than the process's first one.
    func isCurrent() -> Bool {
        if isMain && (Thread.isMainThread || DispatchQueue.getSpecific(key: Self.mainQueueKey) == true) { return true }
        return RunningQueues.current.contains(self)
    }

    /// Marks work running on the main queue. Set once; the key is private to ObjectGraph.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Runs `body` on the queue later.
    func async(_ body: @escaping @Sendable () -> Void) {
        dispatchQueue.async { self.run(body) }
    }

    /// Runs `body` on the queue and waits; runs it at once when already on the queue.
    func sync<T>(_ body: () -> T) -> T {
        if isCurrent() { return run(body) }
        return dispatchQueue.sync { run(body) }
    }

    /// Runs `body` marked as running this queue on the current thread.
    private func run<T>(_ body: () -> T) -> T {
        let running = RunningQueues.current
        running.push(self)
        defer { running.pop() }
        return body()
    }
}

/// The context queues running on one thread, innermost last; kept in thread-local storage.
final class RunningQueues {
    private var queues: [ObjectIdentifier] = []

    func push(_ queue: ContextQueue) { queues.append(ObjectIdentifier(queue)) }
    func pop() { queues.removeLast() }
    func contains(_ queue: ContextQueue) -> Bool { queues.contains(ObjectIdentifier(queue)) }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<RunningQueues>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// The calling thread's list, created on first use.
    static var current: RunningQueues {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<RunningQueues>.fromOpaque(pointer).takeUnretainedValue()
        }
        let queues = RunningQueues()
        pthread_setspecific(key, Unmanaged.passRetained(queues).toOpaque())
        return queues
    }
}
