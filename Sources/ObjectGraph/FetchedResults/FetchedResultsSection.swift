/// One section of a fetched-results controller's results: the objects with one value of the
/// section key path, or all of them when there is no section key path.
public struct FetchedResultsSection<Result: ManagedObject> {
    let controller: FetchedResultsController<Result>
    /// The section's name: the text of its value ("" for nil, and without a section key path).
    public let name: String
    /// The value of the section key path its objects share (nil without a section key path).
    public let value: PrimitiveValue
    /// The positions of its objects among all the results.
    public let range: Range<Int>

    /// The number of objects.
    public var count: Int { range.count }

    /// The objects, made as they are read.
    public var objects: Slice<FetchedObjects<Result>> {
        FetchedObjects(controller: controller)[range]
    }

    /// The IDs of the objects, in order.
    public var objectIDs: [ManagedObjectID] {
        controller.objectIDs(in: range)
    }
}

/// A fetched-results controller's sections, each made when it is read (O(log n)).
public struct FetchedResultsSections<Result: ManagedObject>: RandomAccessCollection {
    let controller: FetchedResultsController<Result>

    public var startIndex: Int { 0 }
    public var endIndex: Int { controller.sectionCount }

    public subscript(position: Int) -> FetchedResultsSection<Result> {
        controller.section(at: position)
    }
}
