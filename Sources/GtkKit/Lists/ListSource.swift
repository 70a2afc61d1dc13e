/// The rows a ``ListModel`` presents: a count, an identity per row, and change notifications.
///
/// A fetched-results controller adopts it through ``FetchedResultsListSource``; tests use an
/// array. The model asks only for what GTK needs: the identity of the rows GTK shows, never
/// every row.
///
/// ```swift
/// final class ArticleRows: ListSource {
///     var observer: ListSourceObserver<ManagedObjectID>?
///     var count: Int { controller.count }
///     func identity(at index: Int) -> ManagedObjectID { controller.objectID(at: index) }
///     func index(of identity: ManagedObjectID) -> Int? { controller.index(of: identity) }
///     func prefetch(_ range: Range<Int>) { controller.prefetch(range) }
///     // and forwards the controller's delegate calls to `observer`.
/// }
/// ```
///
/// Changes are reported to ``observer`` the way an `NSFetchedResultsController` reports them
/// to its delegate: ``ListSourceObserver/willChangeContent()``, one
/// ``ListSourceObserver/didChange(_:)`` per row, then ``ListSourceObserver/didChangeContent()``,
/// or ``ListSourceObserver/didReload()`` when the rows were replaced wholesale (a new fetch).
/// By the time the source reports a change, `count` and `identity(at:)` already answer for the
/// new rows.
@MainActor
public protocol ListSource: AnyObject {
    /// What stays the same for a row while its data and position change, such as an object ID.
    associatedtype Identity: Hashable & Sendable

    /// Receives the source's changes. Set by the ``ListModel`` that presents the source; the
    /// source keeps it strongly (the observer refers to the model weakly).
    var observer: ListSourceObserver<Identity>? { get set }

    /// The number of rows.
    var count: Int { get }

    /// The identity of the row at `index` (`0 ..< count`). Called for the rows GTK shows, so it
    /// should be cheap: an array lookup, not a fetch.
    func identity(at index: Int) -> Identity

    /// The index of the row with `identity`, or nil if it is not in the list. Used to keep the
    /// selection and the scroll position across reloads; a fetched-results controller answers
    /// it in O(log n).
    func index(of identity: Identity) -> Int?

    /// A hint that the rows in `range` are about to be shown: load their data in one batch (a
    /// fetched-results controller faults them in with one query) so binding each row is cheap.
    func prefetch(_ range: Range<Int>)
}
