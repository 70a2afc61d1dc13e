/// Why a ``FetchedResultsController`` cannot be made for a fetch request, or cannot fetch it.
/// Each case names the entity and what is wrong; store failures while fetching are ``StoreError``.
public enum FetchedResultsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request has no sort descriptor; a controller's results need an order.
    case missingSortDescriptors(entity: String)
    /// The section key path is not the key path of the first sort descriptor, so sections would not
    /// be contiguous runs of the results.
    case sectionKeyPathNotFirstSortKey(entity: String, sectionNameKeyPath: String, firstSortKey: String)
    /// The section key path sorts strings in a case-insensitive or localized order, in which
    /// different names ("Draft", "draft") are equal and so could not name one section each.
    case sectionKeyPathNotBinaryOrder(entity: String, sectionNameKeyPath: String)
    /// The request asks for something a controller does not do: it tracks every matching object,
    /// pending changes included (`fetchLimit`, `fetchOffset`, `includesPendingChanges = false`).
    case unsupportedFetchRequest(entity: String, reason: String)
    /// The request does not fit the schema: unknown entity, or a key path that is not an attribute
    /// reached through to-one relationships.
    case invalidFetchRequest(ObjectGraphError)
    /// The context is a child context: a controller reads the store directly, which a child's view
    /// of its parent's unsaved changes would contradict.
    case unsupportedContext(entity: String, reason: String)

    public var description: String {
        switch self {
        case .missingSortDescriptors(let entity):
            return "fetched-results controller for \(entity): the fetch request needs at least one sort descriptor"
        case .sectionKeyPathNotFirstSortKey(let entity, let sectionNameKeyPath, let firstSortKey):
            return "fetched-results controller for \(entity): section key path '\(sectionNameKeyPath)' "
                + "is not the first sort key ('\(firstSortKey)')"
        case .sectionKeyPathNotBinaryOrder(let entity, let sectionNameKeyPath):
            return "fetched-results controller for \(entity): section key path '\(sectionNameKeyPath)' "
                + "must sort strings in binary order"
        case .unsupportedFetchRequest(let entity, let reason):
            return "fetched-results controller for \(entity): \(reason)"
        case .invalidFetchRequest(let error):
            return "fetched-results controller: \(error)"
        case .unsupportedContext(let entity, let reason):
            return "fetched-results controller for \(entity): \(reason)"
        }
    }
}
