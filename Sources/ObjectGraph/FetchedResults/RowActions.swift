/// What a notification asks of one row of a fetched-results controller.
enum RowAction: Int, Comparable {
    /// The object left the context: remove it if it is in the results.
    case remove
    /// The object may have changed: read its current values, and insert, move, update or remove it.
    case evaluate

    static func < (lhs: RowAction, rhs: RowAction) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The rows one notification concerns, each with the strongest action asked for it, in the order
/// first named.
struct RowActions {
    private var actions: [Int64: RowAction] = [:]
    private var order: [Int64] = []

    var isEmpty: Bool { order.isEmpty }

    mutating func add(_ action: RowAction, for key: Int64) {
        if let existing = actions[key] {
            if existing < action { actions[key] = action }
        } else {
            actions[key] = action
            order.append(key)
        }
    }

    /// The keys whose action is `action`, in order.
    func keys(for action: RowAction) -> [Int64] {
        order.filter { actions[$0] == action }
    }

    /// Every key with its action, in order.
    var ordered: [(key: Int64, action: RowAction)] {
        order.map { ($0, actions[$0]!) }
    }
}
