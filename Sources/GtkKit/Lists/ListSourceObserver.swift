/// Where a ``ListSource`` reports its changes. The ``ListModel`` presenting the source creates
/// it and sets it as the source's ``ListSource/observer``; it refers to the model weakly.
///
/// The calls mirror an `NSFetchedResultsControllerDelegate`, so an adapter forwards them one
/// to one:
///
/// ```swift
/// observer?.willChangeContent()
/// observer?.didChange(.delete(id, at: 4))
/// observer?.didChange(.insert(otherID, at: 0))
/// observer?.didChangeContent()  // the list model publishes the batch here
/// ```
///
/// The changes of one batch arrive in any order. Calls are on the main actor, like GTK.
@MainActor
public final class ListSourceObserver<Identity: Hashable & Sendable> {
    private let apply: @MainActor ([ListChange<Identity>]) -> Void
    private let reload: @MainActor () -> Void
    private var batch: [ListChange<Identity>]?

    init(apply: @escaping @MainActor ([ListChange<Identity>]) -> Void, reload: @escaping @MainActor () -> Void) {
        self.apply = apply
        self.reload = reload
    }

    /// A batch begins.
    public func willChangeContent() {
        precondition(batch == nil, "willChangeContent() inside a batch; every batch ends with didChangeContent()")
        batch = []
    }

    /// One row changed within the current batch.
    public func didChange(_ change: ListChange<Identity>) {
        precondition(batch != nil, "didChange(_:) outside a batch; call willChangeContent() first")
        batch?.append(change)
    }

    /// The batch is complete and the source answers for the new rows: the list model
    /// publishes it to GTK now.
    public func didChangeContent() {
        guard let changes = batch else {
            preconditionFailure("didChangeContent() without willChangeContent()")
        }
        batch = nil
        apply(changes)
    }

    /// The rows were replaced wholesale (a new fetch): the list model publishes a reload,
    /// keeping the selection and the scroll position by identity.
    public func didReload() {
        precondition(batch == nil, "didReload() inside a batch")
        reload()
    }
}
