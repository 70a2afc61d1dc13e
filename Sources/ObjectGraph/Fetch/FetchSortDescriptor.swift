/// One key of a fetch's sort order: an attribute (possibly through to-one relationships), a
/// direction and, for strings, an order. Nil sorts before every value in ascending order.
///
///     request.sortDescriptors = [.descending(\.modifiedAt), .ascending(\.title, order: .localized)]
///
/// (Named `FetchSortDescriptor` because Foundation already has a `SortDescriptor`.)
public struct FetchSortDescriptor<Root: ManagedObject>: Sendable, Hashable {
    /// The property names from the root object to the attribute.
    public let keyPath: [String]
    /// Smallest first when true.
    public var ascending: Bool
    /// How strings compare; ignored for other types.
    public var order: StringOrder

    /// A sort key for an attribute, through to-one relationships if the key path passes them.
    public init<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, ascending: Bool = true, order: StringOrder = .binary) {
        self.keyPath = KeyPathProbe.names(of: keyPath)
        self.ascending = ascending
        self.order = order
    }

    /// A sort key by dot-separated name, for entities without a class of their own.
    public init(key: String, ascending: Bool = true, order: StringOrder = .binary) {
        self.keyPath = key.split(separator: ".").map(String.init)
        self.ascending = ascending
        self.order = order
    }

    /// Smallest first.
    public static func ascending<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, order: StringOrder = .binary) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath, ascending: true, order: order)
    }

    /// Largest first.
    public static func descending<Value: AttributeValue>(_ keyPath: KeyPath<Root, Value>, order: StringOrder = .binary) -> FetchSortDescriptor {
        FetchSortDescriptor(keyPath, ascending: false, order: order)
    }
}
