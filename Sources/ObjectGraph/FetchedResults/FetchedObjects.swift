/// A fetched-results controller's objects as a random-access collection, made as they are read:
/// each element is ``FetchedResultsController/object(at:)`` (a fault whose batch loads in one
/// query when it is read). It shows the controller's current results, so use it on the
/// context's queue and do not keep its indices across changes.
public struct FetchedObjects<Result: ManagedObject>: RandomAccessCollection {
    let controller: FetchedResultsController<Result>

    public var startIndex: Int { 0 }
    public var endIndex: Int { controller.count }

    public subscript(position: Int) -> Result {
        controller.object(at: position)
    }

    /// The IDs of the objects, in order, without making any object.
    public var objectIDs: [ManagedObjectID] {
        controller.objectIDs(in: 0..<controller.count)
    }
}
