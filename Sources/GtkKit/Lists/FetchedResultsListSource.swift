import ObjectGraph

/// A fetched-results controller of the view context as a ``ListSource``: rows are its objects,
/// identified by object ID, and its changes reach the ``ListModel`` as they happen.
///
/// ```swift
/// let controller = try FetchedResultsController(fetchRequest: request, context: container.viewContext)
/// let articles = FetchedResultsListSource(controller: controller) { [weak self] error in self?.show(error) }
/// let model = ListModel(source: articles)
/// try controller.performFetch()                  // published as a reload
/// let factory = ListRowFactory(model: model, rowHeight: 56, makeRow: ArticleRowView.init) { row, _, index in
///     row.show(articles.object(at: index))        // a fault whose batch was prefetched
/// }
/// ```
///
/// - Each batch of the controller becomes one batch of ``ListChange``s with the same flat
///   positions (sections are not shown: GTK 4.8 lists have none).
/// - Every `performFetch()` (a new predicate, say) and every refetch after the context's
///   `reset()` or `refreshAllObjects()` is published as a reload, which keeps the scroll
///   position and the selection by object ID.
/// - `prefetch(_:)` makes the rows about to be shown one fault group, so binding the first of
///   them loads them all in one query; nothing is read before that.
/// - A row whose object gets a permanent ID when it is saved leaves under its temporary ID and
///   arrives under the permanent one.
///
/// The source becomes the controller's delegate; its context must be the view context, since
/// GTK and the source live on the main thread.
@MainActor
public final class FetchedResultsListSource<Result: ManagedObject>: ListSource {
    public typealias Identity = ManagedObjectID

    /// The controller whose objects are the rows.
    public let controller: FetchedResultsController<Result>
    public var observer: ListSourceObserver<ManagedObjectID>?
    /// Told when the controller could not apply a change of its context because reading the
    /// store failed; the list then shows the rows as they were. Show the error and fetch again
    /// (`controller.performFetch()`) once the store works.
    private let failed: @MainActor (any Error) -> Void

    /// A source over `controller`, which must be on the view context; it becomes the
    /// controller's delegate.
    public init(controller: FetchedResultsController<Result>, onFailure: @escaping @MainActor (any Error) -> Void) {
        precondition(controller.context.isMainQueueContext, "a list shows a controller of the view context")
        self.controller = controller
        failed = onFailure
        controller.delegate = self
    }

    public var count: Int { controller.count }

    public func identity(at index: Int) -> ManagedObjectID {
        controller.objectID(at: index)
    }

    public func index(of identity: ManagedObjectID) -> Int? {
        controller.fetchedObjects == nil ? nil : controller.index(of: identity)
    }

    public func prefetch(_ range: Range<Int>) {
        controller.prefetch(range)
    }

    /// The object of the row at `index`, to bind it.
    public func object(at index: Int) -> Result {
        controller.object(at: index)
    }
}

// The controller calls its delegate on its context's queue: the main queue, for the view context.
extension FetchedResultsListSource: FetchedResultsControllerDelegate {
    public nonisolated func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {
        MainActor.assumeIsolated { observer?.willChangeContent() }
    }

    public nonisolated func controller(_ controller: FetchedResultsController<Result>, didChange change: FetchedResultsChange) {
        let listChange: ListChange<ManagedObjectID>
        switch change {
        case .insert(let objectID, let position): listChange = .insert(objectID, at: position.index)
        case .delete(let objectID, let position): listChange = .delete(objectID, at: position.index)
        case .move(let objectID, let from, let to): listChange = .move(objectID, from: from.index, to: to.index)
        case .update(let objectID, let position): listChange = .update(objectID, at: position.index)
        }
        MainActor.assumeIsolated { observer?.didChange(listChange) }
    }

    public nonisolated func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {
        MainActor.assumeIsolated { observer?.didChangeContent() }
    }

    public nonisolated func controllerDidReloadContent(_ controller: FetchedResultsController<Result>) {
        MainActor.assumeIsolated { observer?.didReload() }
    }

    public nonisolated func controller(_ controller: FetchedResultsController<Result>, didFailWith error: any Error) {
        MainActor.assumeIsolated { failed(error) }
    }
}
