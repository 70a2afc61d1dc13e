import Foundation

/// Delete rules, applied at the start of a save (``ManagedObjectContext/save()``) before anything
/// is validated: cascade transitively, then deny, then nullify inverses.
extension ManagedObjectContext {
    /// Cascades deletes transitively, then checks deny rules, then nullifies inverses.
    func applyDeleteRules() throws -> [ValidationError.Issue] {
        var index = 0
        while index < pendingDeletes.count {
            let object = pendingDeletes[index]
            index += 1
            guard object.flags.contains(.listedAsDeleted) else { continue }
            for relationship in object.entityModel.relationships where relationship.deleteRule == .cascade {
                for target in try liveDestinations(of: object, relationship) { delete(target) }
            }
        }

        var issues: [ValidationError.Issue] = []
        let deleted = pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) }
        for object in deleted {
            for relationship in object.entityModel.relationships where relationship.deleteRule == .deny {
                let blocking = try liveDestinations(of: object, relationship)
                if !blocking.isEmpty {
                    issues.append(ValidationError.Issue(
                        entity: object.entityModel.name, objectID: object.objectID, key: relationship.name,
                        reason: .deleteDenied(by: blocking.map(\.objectID).sorted { $0.key < $1.key })))
                }
            }
        }
        guard issues.isEmpty else { return issues }

        for object in deleted {
            for relationship in object.entityModel.relationships where relationship.deleteRule == .nullify {
                // From the deleted object's side, which is loaded now: the other side (a tag's
                // articles, say) need not be, and takes the change as pending if it is not.
                for target in try liveDestinations(of: object, relationship) {
                    if relationship.isToMany {
                        try removeMember(target, from: object, relationship)
                    } else {
                        try setDestination(nil, of: object, relationship)
                    }
                }
            }
        }
        return []
    }

    /// The related objects that are not themselves deleted.
    func liveDestinations(of object: ManagedObject, _ relationship: RelationshipModel) throws -> [ManagedObject] {
        switch try loadedState(of: object, relationship) {
        case .toOne(let target): return target.map { $0.flags.contains(.deleted) ? [] : [$0] } ?? []
        case .toMany(let storage): return storage.members.filter { !$0.flags.contains(.deleted) }.sorted { $0.key < $1.key }
        case .fault, .unloadedToMany: return []
        }
    }
}
