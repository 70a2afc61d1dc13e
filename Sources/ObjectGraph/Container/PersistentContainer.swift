import Foundation
import Synchronization

/// The stack in one object: a schema, the store opened for it, the view context on the main actor,
/// and background contexts on their own queues.
///
///     let container = try PersistentContainer(schema: librarySchema, store: .file(libraryURL))
///
///     // On the main actor:
///     let drafts = try container.viewContext.fetch(FetchRequest<Article>(predicate: \.isDraft == true))
///
///     // Anywhere:
///     let id = try await container.performBackgroundTask { context in
///         let article = Article(context: context)
///         article.title = "From the sync worker"
///         try context.save()
///         return article.objectID
///     }
public final class PersistentContainer: Sendable {
    /// The schema the store was opened with.
    public let schema: Schema
    /// The store every context of the container reads from and saves to.
    public let persistentStore: PersistentStore
    /// The context for the user interface: it runs on the main thread (the main actor).
    @MainActor public var viewContext: ManagedObjectContext { mainContext }

    private let mainContext: ManagedObjectContext
    private let concurrency: ConcurrencyChecking
    private let temporaryKeys = TemporaryKeySource()
    private let contextCounter = ContextCounter()

    /// Opens the store for `schema`: validates the schema (every inverse, every class), creates a new
    /// store or checks an existing one's checksum, and makes the view context.
    ///
    /// Throws ``SchemaError`` for a schema that cannot work, and ``StoreError`` for a store that
    /// cannot be opened (classified: busy, no space, permission, read-only, not a database,
    /// corrupt, incompatible schema). A failed open never rewrites or deletes the file.
    public init(schema: Schema, store: StoreDescription, concurrencyChecking: ConcurrencyChecking = .default) throws {
        self.schema = schema
        persistentStore = try PersistentStore(description: store, schema: schema)
        concurrency = concurrencyChecking
        mainContext = ManagedObjectContext(
            store: persistentStore, queue: ContextQueue(kind: .main), concurrency: concurrencyChecking,
            temporaryKeys: temporaryKeys, label: "view context")
    }

    /// Checkpoints the store's log into its file and closes the store (``PersistentStore/close()``):
    /// afterwards the file alone holds everything, and every context of the container throws
    /// ``ObjectGraphError/storeClosed(path:)`` when it reads or saves. Call it when done.
    public func close() {
        persistentStore.close()
    }

    /// A new context on a private serial queue; use it inside `perform` or `performAndWait`.
    public func newBackgroundContext() -> ManagedObjectContext {
        let number = contextCounter.next()
        let queue = DispatchQueue(label: "objectgraph.context.\(number)")
        return ManagedObjectContext(
            store: persistentStore, queue: ContextQueue(kind: .privateQueue(queue)), concurrency: concurrency,
            temporaryKeys: temporaryKeys, label: "background context \(number)")
    }

    /// Runs `body` with a new background context on its queue.
    public func performBackgroundTask<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (ManagedObjectContext) throws(Failure) -> T
    ) async throws(Failure) -> T {
        let context = newBackgroundContext()
        return try await context.perform { () throws(Failure) -> T in try body(context) }
    }

    /// The ID a ``ManagedObjectID/uriRepresentation`` stands for, checked against this store and
    /// schema (the object itself may no longer exist; `existingObject(with:)` tells).
    public func managedObjectID(forURIRepresentation uri: URL) throws -> ManagedObjectID {
        let parts = uri.path.split(separator: "/").map(String.init)
        guard uri.scheme == "objectgraph", let host = uri.host, let storeIdentifier = UUID(uuidString: host),
              parts.count == 2, let kind = parts[1].first, kind == "p" || kind == "t",
              let number = Int64(parts[1].dropFirst()), number > 0 else {
            throw ObjectGraphError.invalidURI(uri.absoluteString)
        }
        guard let entity = persistentStore.model.entity(named: parts[0]) else {
            throw ObjectGraphError.unknownEntity(parts[0])
        }
        let objectID = ManagedObjectID(entity: entity, key: kind == "p" ? number : -number)
        guard storeIdentifier == persistentStore.metadata.storeIdentifier else { throw ObjectGraphError.wrongStore(objectID) }
        return objectID
    }
}

/// Numbers background contexts for their queue labels.
private final class ContextCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
