/// The place of an object among a fetched-results controller's sections: the section, and the
/// object's position within it. (Foundation's `IndexPath` has no `section` and `item` on Linux.)
public struct FetchedIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section's position among the sections.
    public var section: Int
    /// The object's position within its section.
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: FetchedIndexPath, rhs: FetchedIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    public var description: String { "[\(section), \(item)]" }
}
