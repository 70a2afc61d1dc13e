/// Why a batch of ``ListChange``s does not describe a change from the list GTK was shown to the
/// source's current rows. A ``ListModel`` that receives such a batch reloads instead, so GTK's
/// view stays exact, and reports the error to its ``ListModel/inconsistencyHandler``.
public enum ListChangeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A row leaves from an index the old list does not have.
    case removalOutOfRange(index: Int, oldCount: Int)
    /// A row arrives at an index the new list does not have.
    case insertionOutOfRange(index: Int, newCount: Int)
    /// Two changes remove the row at the same old index.
    case removedTwice(index: Int)
    /// Two changes insert a row at the same new index.
    case insertedTwice(index: Int)
    /// An update names an index the old list does not have.
    case updateOutOfRange(index: Int, oldCount: Int)
    /// The old count, minus the removals, plus the insertions, is not the new count.
    case countMismatch(oldCount: Int, removed: Int, inserted: Int, newCount: Int)
    /// The source has another row at an index the batch inserts or moves a row to.
    case identityMismatch(index: Int, reported: String, found: String)

    public var description: String {
        switch self {
        case .removalOutOfRange(let index, let oldCount):
            "a row leaves from index \(index), but the list had \(oldCount) rows"
        case .insertionOutOfRange(let index, let newCount):
            "a row arrives at index \(index), but the list has \(newCount) rows"
        case .removedTwice(let index): "two changes remove the row at old index \(index)"
        case .insertedTwice(let index): "two changes insert a row at new index \(index)"
        case .updateOutOfRange(let index, let oldCount):
            "an update names index \(index), but the list had \(oldCount) rows"
        case .countMismatch(let oldCount, let removed, let inserted, let newCount):
            "\(oldCount) rows - \(removed) removed + \(inserted) inserted is not the \(newCount) rows the source has"
        case .identityMismatch(let index, let reported, let found):
            "the batch puts \(reported) at index \(index), but the source has \(found) there"
        }
    }
}
