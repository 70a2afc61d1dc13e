/// What a ``FetchedResultsController`` tells about its changes, on its context's queue, as an
/// `NSFetchedResultsControllerDelegate` is told:
///
///     controllerWillChangeContent          (the results already answer for the new state)
///     controller(_:didChangeSection:)      for each section inserted or deleted
///     controller(_:didChange:)             for each object inserted, deleted, moved or updated
///     controllerDidChangeContent
///     controller(_:didChangeContentWith:)  the same batch as one snapshot difference
///
/// or `controllerDidReloadContent` when the results were replaced wholesale (`performFetch()`, the
/// context's `reset()` or `refreshAllObjects()`). Every method but `didFailWith` has an empty
/// default, so a delegate implements what it uses.
public protocol FetchedResultsControllerDelegate<Result>: AnyObject {
    associatedtype Result: ManagedObject

    /// A batch of changes begins; the controller already answers for the results after it.
    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>)
    /// A section appeared or disappeared within the current batch.
    func controller(_ controller: FetchedResultsController<Result>, didChangeSection change: FetchedResultsSectionChange)
    /// An object changed within the current batch.
    func controller(_ controller: FetchedResultsController<Result>, didChange change: FetchedResultsChange)
    /// The batch is complete.
    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>)
    /// The batch just reported, as a snapshot difference.
    func controller(_ controller: FetchedResultsController<Result>, didChangeContentWith difference: FetchedResultsDifference)
    /// The results were fetched again and replaced wholesale.
    func controllerDidReloadContent(_ controller: FetchedResultsController<Result>)
    /// A change of the context could not be applied, because reading the changed objects (or
    /// fetching again) failed. The results are as they were before that change, which they no
    /// longer reflect: call `performFetch()` once the store works again.
    func controller(_ controller: FetchedResultsController<Result>, didFailWith error: any Error)
}

extension FetchedResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {}
    public func controller(_ controller: FetchedResultsController<Result>, didChangeSection change: FetchedResultsSectionChange) {}
    public func controller(_ controller: FetchedResultsController<Result>, didChange change: FetchedResultsChange) {}
    public func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {}
    public func controller(_ controller: FetchedResultsController<Result>, didChangeContentWith difference: FetchedResultsDifference) {}
    public func controllerDidReloadContent(_ controller: FetchedResultsController<Result>) {}
}
