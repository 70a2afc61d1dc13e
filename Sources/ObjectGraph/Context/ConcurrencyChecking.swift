import Foundation

/// Detection of a context or object used outside its context's queue, like Core Data's
/// concurrency debug flag.
///
/// On by default in debug builds (and so in tests), off in release builds unless the environment
/// sets `OBJECTGRAPH_CONCURRENCY_DEBUG=1`. The default handler stops the program with a message
/// naming the context and the operation; tests can pass their own handler to check detection
/// without crashing:
///
///     let violations = ViolationLog()
///     let container = try PersistentContainer(schema: schema, store: .file(url),
///         concurrencyChecking: ConcurrencyChecking(isEnabled: true) { violations.append($0) })
public struct ConcurrencyChecking: Sendable {
    /// Whether access is checked at all. When off, nothing is checked and nothing costs.
    public var isEnabled: Bool
    /// Called with each violation found, on the thread that committed it.
    public var violationHandler: @Sendable (ConcurrencyViolation) -> Void

    /// Checking switched on or off, reporting to `violationHandler` (by default: stop).
    public init(isEnabled: Bool, violationHandler: @escaping @Sendable (ConcurrencyViolation) -> Void = ConcurrencyChecking.stop) {
        self.isEnabled = isEnabled
        self.violationHandler = violationHandler
    }

    /// On in debug builds or with `OBJECTGRAPH_CONCURRENCY_DEBUG=1`; violations stop the program.
    public static var `default`: ConcurrencyChecking {
        let requested = ProcessInfo.processInfo.environment["OBJECTGRAPH_CONCURRENCY_DEBUG"]
        let enabled = requested.map { $0 != "0" } ?? _isDebugAssertConfiguration()
        return ConcurrencyChecking(isEnabled: enabled)
    }

    /// The default handler: stops the program, naming the context and the operation.
    public static let stop: @Sendable (ConcurrencyViolation) -> Void = { violation in
        fatalError(violation.description)
    }
}

/// A context or one of its objects touched from a thread that is not running the context's queue.
public struct ConcurrencyViolation: Sendable, CustomStringConvertible {
    /// The context's name, or a description of it.
    public var context: String
    /// Whether the context is the main-queue (view) context.
    public var isMainQueueContext: Bool
    /// A description of the offending thread.
    public var thread: String

    public var description: String {
        let expected = isMainQueueContext ? "the main thread" : "its perform or performAndWait"
        return "ObjectGraph concurrency violation: context \(context) used on \(thread), outside \(expected)"
    }
}
