import Synchronization

/// One SELECT as ``QueryBuilder`` writes it: the SQL, the values of its parameters, and where the
/// values of its keyset condition went.
struct CompiledQuery: Sendable, Equatable {
    /// A parameter a keyset condition bound: `bindings[binding]` holds the cursor's value at
    /// `source` (see ``QueryBuilder/keysetValues(_:attributes:of:)``).
    struct KeysetParameter: Sendable, Equatable {
        let binding: Int
        let source: Int
    }

    let sql: String
    let bindings: [PrimitiveValue]
    /// The keyset condition's parameters when the query holds exactly one such condition; nil
    /// when it holds more, whose values could not be told apart.
    let keysetParameters: [KeysetParameter]?

    /// The same query for the rows after another cursor in the same sort order: its values, checked
    /// as a new translation would check them, in the places the first cursor's took.
    func substituting(_ keyset: KeysetCondition, in entity: EntityModel) throws -> CompiledQuery {
        guard let keysetParameters else { preconditionFailure("a query without one keyset condition takes no cursor") }
        let values = try QueryBuilder.keysetValues(
            keyset, attributes: try QueryBuilder.keysetAttributes(keyset, of: entity), of: entity)
        var bindings = bindings
        for parameter in keysetParameters { bindings[parameter.binding] = values[parameter.source] }
        return CompiledQuery(sql: sql, bindings: bindings, keysetParameters: keysetParameters)
    }
}

/// The queries one fetch request was translated to, kept with the request (and its copies) so
/// that fetching it again does not translate it again: translating a keyset page's request cost
/// about a tenth of fetching the page (31,600 instructions of 367,000; 200 pages of 50 now take
/// 85.9 M instructions against 89.7 M, callgrind, and `fetch_keyset_50` reads 1.34 of raw SQLite
/// against 1.44).
///
/// A request's translation depends on the request and the schema only, so the queries are kept
/// by the schema, what the fetch selects and the limit and offset it ran with. Changing a property
/// of the request that its SQL depends on gives it new, empty queries (see ``FetchRequest``), so
/// nothing is ever looked up by comparing predicates (Swift's string equality would take two
/// spellings of "é" for one; SQLite does not).
///
/// The pages of a keyset pagination, `request.after(cursor)` for one request and any cursor,
/// share one more set (``keysetPages``): their SQL is the same for every cursor (see
/// `QueryBuilder.keysetCondition`), and only the cursor's values are put in their places.
final class CompiledQueries: Sendable {
    /// What a query was translated for besides the request.
    struct Key: Sendable, Equatable {
        let model: SchemaModel
        let selection: QueryBuilder.Selection
        let limit: Int
        let offset: Int

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.model === rhs.model && lhs.selection == rhs.selection && lhs.limit == rhs.limit && lhs.offset == rhs.offset
        }
    }

    private struct Entry: Sendable {
        let key: Key
        let query: CompiledQuery
    }

    /// A request runs a few queries (its rows, its keys, its count, some with a limit widened by
    /// unsaved changes); the oldest goes when a new one would make more.
    static let capacity = 8

    /// Whether these are the queries of keyset pages, whose cursor changes from use to use.
    let areKeysetPages: Bool
    private let entries = Mutex<[Entry]>([])
    private let pages = Mutex<CompiledQueries?>(nil)

    init(keysetPages: Bool = false) {
        areKeysetPages = keysetPages
    }

    /// The queries `after(_:)` gives the pages after a cursor in this request's order. The pages of
    /// a page (`page.after(next)`, two keyset conditions) get their own each.
    var keysetPages: CompiledQueries {
        if areKeysetPages { return CompiledQueries() }
        return pages.withLock { pages in
            if let pages { return pages }
            let made = CompiledQueries(keysetPages: true)
            pages = made
            return made
        }
    }

    /// The query for `key`, translated by `translate` the first time. `predicate` is the request's
    /// condition (for keyset pages, the one whose last part is the cursor's keyset).
    func query(
        for key: Key, predicate: PredicateNode?, entity: EntityModel, translate: () throws -> CompiledQuery
    ) throws -> CompiledQuery {
        let keyset = areKeysetPages ? predicate?.appendedKeyset : nil
        if areKeysetPages && keyset == nil { return try translate() }
        if let kept = entries.withLock({ entries in entries.first { $0.key == key }?.query }) {
            let query = try keyset.map { try kept.substituting($0, in: entity) } ?? kept
            // Every test that fetches a request twice checks the kept translation against a new one.
            assert(query == (try? translate()), "a kept query differs from a new translation of its request")
            return query
        }
        let query = try translate()
        if keyset == nil || query.keysetParameters != nil {
            entries.withLock { entries in
                if entries.count == Self.capacity { entries.removeFirst() }
                entries.append(Entry(key: key, query: query))
            }
        }
        return query
    }
}

extension PredicateNode {
    /// The keyset condition ``FetchRequest/after(_:)`` adds: the whole predicate, or the last part
    /// of its conjunction.
    var appendedKeyset: KeysetCondition? {
        switch self {
        case .keyset(let keyset): return keyset
        case .and(let nodes):
            if case .keyset(let keyset)? = nodes.last { return keyset }
            return nil
        default: return nil
        }
    }
}
