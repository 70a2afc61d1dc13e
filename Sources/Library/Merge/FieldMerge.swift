/// A three-way merge of one value that changes as a whole (folder, status, favorite): a side that
/// kept the base's value gives way to a side that changed it; two different changes conflict.
public enum FieldMerge<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The merge settled on a value (from the side that changed it, or the base's when none did).
    case resolved(Value)
    /// Both sides changed the value, differently.
    case conflict(base: Value, mine: Value, theirs: Value)

    /// Merges `mine` and `theirs`, both derived from `base`.
    public init(base: Value, mine: Value, theirs: Value) {
        if mine == theirs || theirs == base {
            self = .resolved(mine)
        } else if mine == base {
            self = .resolved(theirs)
        } else {
            self = .conflict(base: base, mine: mine, theirs: theirs)
        }
    }

    /// The merged value; `nil` while the writer still has to choose.
    public var value: Value? {
        if case .resolved(let value) = self { value } else { nil }
    }

    /// The merged value, or the chosen side's value where the sides conflict.
    public func resolved(choosing side: FieldChoice) -> Value {
        switch self {
        case .resolved(let value): return value
        case .conflict(let base, let mine, let theirs):
            switch side {
            case .mine: return mine
            case .theirs: return theirs
            case .base: return base
            }
        }
    }
}

/// The writer's choice for a conflicting field.
public enum FieldChoice: Sendable, Hashable {
    /// This device's value.
    case mine
    /// The other side's value.
    case theirs
    /// The value both started from.
    case base
}
