import Foundation

/// A type-checked condition on objects of `Root`, built from key paths in Swift and run as SQL with
/// bound parameters (or in memory, for unsaved changes). There are no format strings.
///
///     let recent: FetchPredicate<Article> = \.modifiedAt > lastWeek && !(\.isTrashed == true)
///     let search: FetchPredicate<Article> = .contains(\.title, "swift", options: [.caseInsensitive, .diacriticInsensitive])
///     let inFolder: FetchPredicate<Article> = \.folder?.name == "Drafts"      // through a to-one
///     let tagged: FetchPredicate<Article> = .any(\.tags, \.name == "linux")  // over a to-many
///     let busy: FetchPredicate<Folder> = .count(\.articles, .greaterOrEqual, 10)
///
/// Semantics match Swift's, also for nil: `==` and `!=` treat nil as a value; ordering comparisons
/// and string operators are false for nil; a nil to-one makes every attribute behind it nil.
/// (Named `FetchPredicate` because Foundation already has a `Predicate`.)
public struct FetchPredicate<Root: ManagedObject>: Sendable {
    let node: PredicateNode

    init(_ node: PredicateNode) {
        self.node = node
    }

    /// Matches every object.
    public static var all: FetchPredicate { FetchPredicate(.constant(true)) }
    /// Matches no object.
    public static var none: FetchPredicate { FetchPredicate(.constant(false)) }

    // MARK: Strings

    /// The attribute starts with `prefix`.
    public static func beginsWith(_ keyPath: KeyPath<Root, String>, _ prefix: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .beginsWith, prefix, options))
    }

    /// The same, for an optional attribute (nil never matches).
    public static func beginsWith(_ keyPath: KeyPath<Root, String?>, _ prefix: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .beginsWith, prefix, options))
    }

    /// The attribute contains `text`.
    public static func contains(_ keyPath: KeyPath<Root, String>, _ text: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .contains, text, options))
    }

    /// The same, for an optional attribute (nil never matches).
    public static func contains(_ keyPath: KeyPath<Root, String?>, _ text: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .contains, text, options))
    }

    /// The attribute ends with `suffix`.
    public static func endsWith(_ keyPath: KeyPath<Root, String>, _ suffix: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .endsWith, suffix, options))
    }

    /// The same, for an optional attribute (nil never matches).
    public static func endsWith(_ keyPath: KeyPath<Root, String?>, _ suffix: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .endsWith, suffix, options))
    }

    /// The attribute matches a pattern where `*` stands for any run of characters and `?` for one.
    public static func like(_ keyPath: KeyPath<Root, String>, _ pattern: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .like, pattern, options))
    }

    /// The same, for an optional attribute (nil never matches).
    public static func like(_ keyPath: KeyPath<Root, String?>, _ pattern: String, options: StringOptions = []) -> FetchPredicate {
        FetchPredicate(.string(KeyPathProbe.names(of: keyPath), .like, pattern, options))
    }

    /// The string attribute equals `text`, ignoring case and/or diacritics as `options` ask.
    public static func equals(_ keyPath: KeyPath<Root, String>, _ text: String, options: StringOptions) -> FetchPredicate {
        FetchPredicate(.comparison(KeyPathProbe.names(of: keyPath), .equal, .string(text), options))
    }

    /// The same, for an optional attribute (nil never matches).
    public static func equals(_ keyPath: KeyPath<Root, String?>, _ text: String, options: StringOptions) -> FetchPredicate {
        FetchPredicate(.comparison(KeyPathProbe.names(of: keyPath), .equal, .string(text), options))
    }

    // MARK: Lists and nil

    /// The attribute's value is one of `values`.
    public static func `in`<Value: AttributeValue & Equatable>(_ keyPath: KeyPath<Root, Value>, _ values: [Value]) -> FetchPredicate {
        FetchPredicate(.inList(KeyPathProbe.names(of: keyPath), values.map(\.primitiveValue)))
    }

    /// The attribute or to-one relationship is nil.
    public static func isNil<Value>(_ keyPath: KeyPath<Root, Value?>) -> FetchPredicate {
        FetchPredicate(.isNil(KeyPathProbe.names(of: keyPath)))
    }

    /// The attribute or to-one relationship is not nil.
    public static func isNotNil<Value>(_ keyPath: KeyPath<Root, Value?>) -> FetchPredicate {
        FetchPredicate(.not(.isNil(KeyPathProbe.names(of: keyPath))))
    }

    // MARK: To-many relationships

    /// At least one member of the to-many matches `predicate`.
    public static func any<Target>(_ keyPath: KeyPath<Root, RelatedObjects<Target>>, _ predicate: FetchPredicate<Target>) -> FetchPredicate {
        FetchPredicate(.any(KeyPathProbe.names(of: keyPath), predicate.node))
    }

    /// Every member of the to-many matches `predicate` (true when there are none).
    public static func all<Target>(_ keyPath: KeyPath<Root, RelatedObjects<Target>>, _ predicate: FetchPredicate<Target>) -> FetchPredicate {
        FetchPredicate(.not(.any(KeyPathProbe.names(of: keyPath), .not(predicate.node))))
    }

    /// The number of members of a to-many compared with an integer: `.count(\.tags, .greater, 2)`.
    public static func count<Target>(
        _ keyPath: KeyPath<Root, RelatedObjects<Target>>, _ comparison: ComparisonOperator, _ count: Int
    ) -> FetchPredicate {
        FetchPredicate(.count(KeyPathProbe.names(of: keyPath), comparison, count))
    }

    // MARK: Untyped

    /// A comparison by property name, for entities without a class of their own: the path is
    /// dot-separated through to-one relationships (`"folder.name"`) and checked when the fetch runs.
    public static func key(_ path: String, _ comparison: ComparisonOperator, _ value: PrimitiveValue) -> FetchPredicate {
        FetchPredicate(.comparison(path.split(separator: ".").map(String.init), comparison, value, []))
    }
}

/// The comparisons predicates can make.
public enum ComparisonOperator: String, Sendable, Hashable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// The operator that is true exactly when this one is false (for non-nil operands).
    var negated: ComparisonOperator {
        switch self {
        case .equal: return .notEqual
        case .notEqual: return .equal
        case .less: return .greaterOrEqual
        case .lessOrEqual: return .greater
        case .greater: return .lessOrEqual
        case .greaterOrEqual: return .less
        }
    }

    /// Whether `order` (the sign of a comparison of the left operand with the right) satisfies it.
    func holds(for order: Int) -> Bool {
        switch self {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }
}

/// The predicate tree, shared by the SQL translation and the in-memory evaluation.
indirect enum PredicateNode: Sendable, Hashable {
    case constant(Bool)
    /// An attribute (through to-ones) compared with a value.
    case comparison([String], ComparisonOperator, PrimitiveValue, StringOptions)
    /// A to-one relationship compared with an object (nil for "no object").
    case objectComparison([String], equal: Bool, ManagedObjectID?)
    case inList([String], [PrimitiveValue])
    case string([String], StringOperator, String, StringOptions)
    /// An attribute or to-one relationship is nil.
    case isNil([String])
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    /// Some member of a to-many (reached through to-ones) matches.
    case any([String], PredicateNode)
    case count([String], ComparisonOperator, Int)
    /// Rows after a cursor in a sort order: the keyset condition of pagination.
    case keyset(KeysetCondition)
    /// The entity's full-text index matches the query.
    case fullText(FullTextQuery)
}

/// The condition "after this cursor" for a sort order ending in the primary key.
struct KeysetCondition: Sendable, Hashable {
    let paths: [[String]]
    let ascending: [Bool]
    let orders: [StringOrder]
    let values: [PrimitiveValue]
    let key: Int64
}

// MARK: Operators

/// Both predicates match.
public func && <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.and([lhs.node, rhs.node]))
}

/// Either predicate matches.
public func || <Root: ManagedObject>(lhs: FetchPredicate<Root>, rhs: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.or([lhs.node, rhs.node]))
}

/// The predicate does not match.
public prefix func ! <Root: ManagedObject>(predicate: FetchPredicate<Root>) -> FetchPredicate<Root> {
    FetchPredicate(.not(predicate.node))
}

/// The attribute equals the value (nil included).
public func == <Root: ManagedObject, Value: AttributeValue & Equatable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .equal, rhs.primitiveValue, []))
}

/// The attribute differs from the value (nil included).
public func != <Root: ManagedObject, Value: AttributeValue & Equatable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .notEqual, rhs.primitiveValue, []))
}

/// The attribute is less than the value.
public func < <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .less, rhs.primitiveValue, []))
}

/// The attribute is at most the value.
public func <= <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .lessOrEqual, rhs.primitiveValue, []))
}

/// The attribute is greater than the value.
public func > <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .greater, rhs.primitiveValue, []))
}

/// The attribute is at least the value.
public func >= <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .greaterOrEqual, rhs.primitiveValue, []))
}

/// The optional attribute is less than the value (never true for nil).
public func < <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .less, rhs.primitiveValue, []))
}

/// The optional attribute is at most the value (never true for nil).
public func <= <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .lessOrEqual, rhs.primitiveValue, []))
}

/// The optional attribute is greater than the value (never true for nil).
public func > <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .greater, rhs.primitiveValue, []))
}

/// The optional attribute is at least the value (never true for nil).
public func >= <Root: ManagedObject, Value: AttributeValue & Comparable>(lhs: KeyPath<Root, Value?>, rhs: Value) -> FetchPredicate<Root> {
    FetchPredicate(.comparison(KeyPathProbe.names(of: lhs), .greaterOrEqual, rhs.primitiveValue, []))
}

/// A to-one relationship is the given object; nil compares with "no object".
public func == <Root: ManagedObject, Target: ManagedObject>(lhs: KeyPath<Root, Target?>, rhs: Target?) -> FetchPredicate<Root> {
    FetchPredicate(.objectComparison(KeyPathProbe.names(of: lhs), equal: true, rhs?.objectID))
}

/// A to-one relationship is not the given object.
public func != <Root: ManagedObject, Target: ManagedObject>(lhs: KeyPath<Root, Target?>, rhs: Target?) -> FetchPredicate<Root> {
    FetchPredicate(.objectComparison(KeyPathProbe.names(of: lhs), equal: false, rhs?.objectID))
}
