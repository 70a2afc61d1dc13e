/// Which rows are selected, by identity, so that a selection outlives inserts, deletes, moves
/// and reloads of the list.
///
/// Select-all is kept as "every row except these", so selecting a million rows stores
/// nothing per row; rows that arrive later are not selected (they are added to the
/// exceptions as they arrive). Only a reload cannot tell new rows from old ones without
/// reading every identity, so a select-all stays a select-all across a reload.
public enum ListSelection<Identity: Hashable & Sendable>: Equatable, Sendable {
    /// These rows and no others.
    case only(Set<Identity>)
    /// Every row except these.
    case allExcept(Set<Identity>)

    /// Whether the row with `identity` is selected (for a row in the list).
    public func contains(_ identity: Identity) -> Bool {
        switch self {
        case .only(let selected): selected.contains(identity)
        case .allExcept(let excluded): !excluded.contains(identity)
        }
    }

    /// The number of selected rows in a list of `count` rows that holds every identity the
    /// selection names (the selection model keeps it so).
    func count(inListOf count: Int) -> Int {
        switch self {
        case .only(let selected): selected.count
        case .allExcept(let excluded): count - excluded.count
        }
    }

    /// The identities the selection names: the selected rows or the exceptions.
    var named: Set<Identity> {
        switch self {
        case .only(let identities), .allExcept(let identities): identities
        }
    }

    mutating func insert(_ identity: Identity) {
        switch self {
        case .only(var selected):
            selected.insert(identity)
            self = .only(selected)
        case .allExcept(var excluded):
            excluded.remove(identity)
            self = .allExcept(excluded)
        }
    }

    mutating func remove(_ identity: Identity) {
        switch self {
        case .only(var selected):
            selected.remove(identity)
            self = .only(selected)
        case .allExcept(var excluded):
            excluded.insert(identity)
            self = .allExcept(excluded)
        }
    }

    /// Rows joined the list: they are not selected.
    mutating func rowsArrived(_ identities: [Identity]) {
        guard case .allExcept(var excluded) = self, !identities.isEmpty else { return }
        excluded.formUnion(identities)
        self = .allExcept(excluded)
    }

    /// Rows left the list: the selection forgets them.
    mutating func rowsLeft(_ identities: [Identity]) {
        guard !identities.isEmpty else { return }
        switch self {
        case .only(let selected): self = .only(selected.subtracting(identities))
        case .allExcept(let excluded): self = .allExcept(excluded.subtracting(identities))
        }
    }

    /// Forgets the rows that are no longer in the list.
    mutating func keepRows(where isInList: (Identity) -> Bool) {
        switch self {
        case .only(let selected): self = .only(selected.filter(isInList))
        case .allExcept(let excluded): self = .allExcept(excluded.filter(isInList))
        }
    }
}
