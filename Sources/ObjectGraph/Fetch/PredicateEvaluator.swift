import Foundation

/// Evaluates predicates and sort orders on objects in memory, with the semantics of their SQL
/// translation, so that fetches can merge a context's unsaved changes with the store's rows.
struct PredicateEvaluator {
    /// What a key path reads on one object.
    enum PathValue {
        case attribute(PrimitiveValue)
        case object(ManagedObject?)
    }

    let context: ManagedObjectContext

    func evaluate(_ node: PredicateNode, on object: ManagedObject) throws -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .and(let nodes):
            for node in nodes where try !evaluate(node, on: object) { return false }
            return true
        case .or(let nodes):
            for node in nodes where try evaluate(node, on: object) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner, on: object)

        case .comparison(let path, let comparison, let value, let options):
            guard case .attribute(let stored) = try self.value(at: path, of: object) else { return false }
            let type = try attributeType(at: path, from: object.entityModel)
            let expected = type.coerce(value) ?? value
            switch (stored.isNull, expected.isNull) {
            case (true, true): return comparison == .equal
            case (true, false), (false, true): return comparison == .notEqual
            case (false, false):
                return comparison.holds(for: Self.compare(stored, expected, options: options, order: .binary))
            }

        case .objectComparison(let path, let equal, let objectID):
            guard case .object(let target) = try value(at: path, of: object) else { return false }
            return (target?.objectID == objectID) == equal

        case .inList(let path, let values):
            guard case .attribute(let stored) = try value(at: path, of: object) else { return false }
            let type = try attributeType(at: path, from: object.entityModel)
            return values.contains { candidate in
                let candidate = type.coerce(candidate) ?? candidate
                if stored.isNull || candidate.isNull { return stored.isNull && candidate.isNull }
                return Self.compare(stored, candidate, options: [], order: .binary) == 0
            }

        case .string(let path, let operation, let pattern, let options):
            guard case .attribute(let stored) = try value(at: path, of: object) else { return false }
            switch stored {
            case .string(let text): return StringMatching.matches(text, operation, pattern, options)
            case .url(let url): return StringMatching.matches(url.absoluteString, operation, pattern, options)
            default: return false
            }

        case .isNil(let path):
            switch try value(at: path, of: object) {
            case .attribute(let stored): return stored.isNull
            case .object(let target): return target == nil
            }

        case .any(let path, let inner):
            for member in try members(at: path, of: object) where try evaluate(inner, on: member) { return true }
            return false

        case .count(let path, let comparison, let count):
            let actual = try members(at: path, of: object).count
            return comparison.holds(for: actual < count ? -1 : actual > count ? 1 : 0)

        case .keyset(let keyset):
            for (index, path) in keyset.paths.enumerated() {
                guard case .attribute(let stored) = try value(at: path, of: object) else { return false }
                var order = Self.compare(stored, keyset.values[index], options: [], order: keyset.orders[index])
                if !keyset.ascending[index] { order = -order }
                if order != 0 { return order > 0 }
            }
            // Ties follow store order in the direction of the last key; unsaved objects rank after
            // every saved one.
            return StoreOrder.compare(object.key, keyset.key, ascending: StoreOrder.tiesAscend(keyset.ascending)) > 0

        case .fullText(let query):
            return try matchesFullText(query, on: object)
        }
    }

    /// Orders two objects by sort keys, then store order (see ``StoreOrder``).
    func areInIncreasingOrder(_ lhs: ManagedObject, _ rhs: ManagedObject, _ sort: [(path: [String], ascending: Bool, order: StringOrder)]) throws -> Bool {
        for key in sort where !FullTextRank.isRank(key.path) {
            guard case .attribute(let left) = try value(at: key.path, of: lhs),
                  case .attribute(let right) = try value(at: key.path, of: rhs) else { continue }
            var order: Int
            switch (left.isNull, right.isNull) {
            case (true, true): order = 0
            case (true, false): order = -1
            case (false, true): order = 1
            case (false, false): order = Self.compare(left, right, options: [], order: key.order)
            }
            if !key.ascending { order = -order }
            if order != 0 { return order < 0 }
        }
        return StoreOrder.compare(lhs.key, rhs.key, ascending: StoreOrder.tiesAscend(sort.lazy.map(\.ascending))) < 0
    }

    // MARK: Reading key paths

    func value(at path: [String], of object: ManagedObject) throws -> PathValue {
        var current = object
        for (position, name) in path.enumerated() {
            let entity = current.entityModel
            let isLast = position == path.count - 1
            if isLast, let index = entity.attributeIndex[name] {
                if current.context === context { try context.fulfillFault(of: current) }
                return .attribute(index < current.values.count ? current.values[index].asStored : .null)
            }
            guard let index = entity.relationshipIndex[name], !entity.relationships[index].isToMany else {
                throw ObjectGraphError.invalidKeyPath(
                    entity: object.entityModel.name, keyPath: path.joined(separator: "."),
                    reason: "'\(name)' is not an attribute or to-one relationship of \(entity.name)")
            }
            let target = try context.destinationObject(of: current, entity.relationships[index])
            if isLast { return .object(target) }
            guard let target else {
                // Everything behind a nil to-one is nil, an attribute or an object.
                var destination = context.model.destination(of: entity.relationships[index])
                for next in path[(position + 1)...].dropLast() {
                    guard let nextIndex = destination.relationshipIndex[next] else { break }
                    destination = context.model.destination(of: destination.relationships[nextIndex])
                }
                return destination.attributeIndex[path[path.count - 1]] != nil ? .attribute(.null) : .object(nil)
            }
            current = target
        }
        throw ObjectGraphError.invalidKeyPath(entity: object.entityModel.name, keyPath: "", reason: "the key path names no property")
    }

    private func members(at path: [String], of object: ManagedObject) throws -> Set<ManagedObject> {
        var owner: ManagedObject? = object
        if path.count > 1 {
            guard case .object(let target) = try value(at: Array(path.dropLast()), of: object) else { return [] }
            owner = target
        }
        guard let owner, let name = path.last, let index = owner.entityModel.relationshipIndex[name],
              owner.entityModel.relationships[index].isToMany else {
            if owner == nil { return [] }
            throw ObjectGraphError.invalidKeyPath(
                entity: object.entityModel.name, keyPath: path.joined(separator: "."), reason: "not a to-many relationship")
        }
        return try context.toManyStorage(of: owner, owner.entityModel.relationships[index]).members
    }

    private func attributeType(at path: [String], from entity: EntityModel) throws -> AttributeType {
        var entity = entity
        for name in path.dropLast() {
            guard let index = entity.relationshipIndex[name] else { break }
            entity = context.model.destination(of: entity.relationships[index])
        }
        guard let last = path.last, let index = entity.attributeIndex[last] else {
            throw ObjectGraphError.invalidKeyPath(
                entity: entity.name, keyPath: path.joined(separator: "."), reason: "not an attribute")
        }
        return entity.attributes[index].type
    }

    // MARK: Comparing values

    /// The sign of comparing two non-nil values as SQLite orders them.
    static func compare(_ lhs: PrimitiveValue, _ rhs: PrimitiveValue, options: StringOptions, order: StringOrder) -> Int {
        func sign<T: Comparable>(_ left: T, _ right: T) -> Int { left < right ? -1 : left > right ? 1 : 0 }
        func bytes(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Int {
            if left.elementsEqual(right) { return 0 }
            return left.lexicographicallyPrecedes(right) ? -1 : 1
        }
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)):
            if !options.isEmpty {
                return StringMatching.compareBytes(StringMatching.fold(left, options), StringMatching.fold(right, options))
            }
            return StringMatching.compare(left, right, order)
        case (.integer(let left), .integer(let right)): return sign(left, right)
        case (.double(let left), .double(let right)): return sign(left, right)
        case (.integer(let left), .double(let right)): return sign(Double(left), right)
        case (.double(let left), .integer(let right)): return sign(left, Double(right))
        case (.decimal(let left), .decimal(let right)): return sign(left, right)
        case (.bool(let left), .bool(let right)): return sign(left ? 1 : 0, right ? 1 : 0)
        case (.date(let left), .date(let right)): return sign(left.timeIntervalSince1970, right.timeIntervalSince1970)
        case (.uuid(let left), .uuid(let right)):
            return withUnsafeBytes(of: left.uuid) { l in withUnsafeBytes(of: right.uuid) { r in bytes(l, r) } }
        case (.data(let left), .data(let right)): return bytes(left, right)
        case (.url(let left), .url(let right)): return StringMatching.compare(left.absoluteString, right.absoluteString, order)
        default: return sign(lhs.kindName, rhs.kindName)
        }
    }
}
