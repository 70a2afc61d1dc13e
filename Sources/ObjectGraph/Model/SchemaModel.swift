import Foundation

/// A validated schema compiled for one store: entity models by name and by class.
final class SchemaModel: Sendable {
    let schema: Schema
    let entities: [EntityModel]
    private let entitiesByName: [String: EntityModel]
    private let entitiesByClass: [ObjectIdentifier: EntityModel]

    /// Validates `schema` (structure and object classes) and compiles it.
    init(schema: Schema, storeIdentifier: UUID) throws {
        var problems = schema.structuralProblems()
        if !problems.isEmpty { throw SchemaError(problems: problems) }
        self.schema = schema

        let numbers = Dictionary(uniqueKeysWithValues: schema.entities.enumerated().map { ($0.element.name, $0.offset) })
        let declared = schema.entities.map { Self.declaredProperties(of: $0.objectClass) }
        var entities: [EntityModel] = []
        for (number, entity) in schema.entities.enumerated() {
            var foreignKeySlot = entity.attributes.count
            var relationships: [RelationshipModel] = []
            for (index, relationship) in entity.relationships.enumerated() {
                let destinationNumber = numbers[relationship.destination]!
                let destination = schema.entities[destinationNumber]
                let inverseIndex = destination.relationships.firstIndex { $0.name == relationship.inverse }!
                let inverse = destination.relationships[inverseIndex]
                let storage: RelationshipModel.Storage
                if schema.ownsForeignKey(relationship, of: entity.name) {
                    storage = .foreignKey(column: relationship.name, slot: foreignKeySlot)
                    foreignKeySlot += 1
                } else if !relationship.isToMany || !inverse.isToMany {
                    storage = .inverseForeignKey(column: inverse.name)
                } else {
                    let ownsTable = (entity.name, relationship.name) <= (destination.name, inverse.name)
                    let table = ownsTable ? "og_join_\(entity.name)_\(relationship.name)" : "og_join_\(destination.name)_\(inverse.name)"
                    storage = .joinTable(
                        table: SQL.quote(table), ownColumn: ownsTable ? "source" : "target",
                        otherColumn: ownsTable ? "target" : "source")
                }
                relationships.append(RelationshipModel(
                    index: index, description: relationship, destination: destinationNumber,
                    inverse: inverseIndex, storage: storage))
            }
            entities.append(EntityModel(
                description: entity, number: number, relationships: relationships, storeIdentifier: storeIdentifier,
                declaredKeys: declared[number].map(\.declaredKey)))
        }
        self.entities = entities
        entitiesByName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        entitiesByClass = Dictionary(
            uniqueKeysWithValues: entities.filter { $0.objectClass != ManagedObject.self }
                .map { (ObjectIdentifier($0.objectClass), $0) })

        for entity in entities where entity.objectClass != ManagedObject.self {
            problems += classProblems(entity, declared[entity.number])
        }
        if !problems.isEmpty { throw SchemaError(problems: problems) }
    }

    func entity(named name: String) -> EntityModel? { entitiesByName[name] }

    func entity(for objectClass: ManagedObject.Type) -> EntityModel? { entitiesByClass[ObjectIdentifier(objectClass)] }

    func destination(of relationship: RelationshipModel) -> EntityModel { entities[relationship.destination] }

    func inverse(of relationship: RelationshipModel) -> RelationshipModel {
        entities[relationship.destination].relationships[relationship.inverse]
    }

    /// The property wrappers a class declares (its superclasses' too), read from a placeholder.
    private static func declaredProperties(of objectClass: ManagedObject.Type) -> [any DeclaredProperty] {
        guard objectClass != ManagedObject.self else { return [] }
        let placeholder = objectClass.init(ObjectInitialization(probe: KeyPathProbe(), entity: EntityModel.placeholder))
        var properties: [any DeclaredProperty] = []
        var mirror: Mirror? = Mirror(reflecting: placeholder)
        while let current = mirror {
            properties += current.children.compactMap { $0.value as? any DeclaredProperty }
            mirror = current.superclassMirror
        }
        return properties
    }

    /// Compares the property wrappers a class declares with its entity.
    private func classProblems(_ entity: EntityModel, _ properties: [any DeclaredProperty]) -> [SchemaError.Problem] {
        var problems: [SchemaError.Problem] = []
        func report(_ key: String, _ message: String) {
            problems.append(SchemaError.Problem(kind: .classMismatch, entity: entity.name, property: key, message: message))
        }
        for declared in properties {
            let key = declared.declaredKey.name
            switch declared.declaredKind {
            case .attribute(let type, let optional):
                guard let attribute = entity.description.attribute(named: key) else {
                    report(key, "\(entity.objectClass) declares attribute '\(key)', which the entity lacks")
                    continue
                }
                if attribute.type != type {
                    report(key, "declared as \(type.rawValue) in \(entity.objectClass), \(attribute.type.rawValue) in the schema")
                } else if attribute.isOptional && !optional {
                    report(key, "the attribute is optional, so its Swift type must be Optional")
                }
            case .codable:
                guard let attribute = entity.description.attribute(named: key) else {
                    report(key, "\(entity.objectClass) declares attribute '\(key)', which the entity lacks")
                    continue
                }
                if attribute.type != .json {
                    report(key, "@CodableAttribute needs an attribute of type json, not \(attribute.type.rawValue)")
                }
            case .toOne(let target), .toMany(let target):
                let isToMany: Bool
                if case .toMany = declared.declaredKind { isToMany = true } else { isToMany = false }
                guard let index = entity.relationshipIndex[key] else {
                    report(key, "\(entity.objectClass) declares relationship '\(key)', which the entity lacks")
                    continue
                }
                let relationship = entity.relationships[index]
                if relationship.isToMany != isToMany {
                    report(key, "declared \(isToMany ? "to-many" : "to-one") in \(entity.objectClass), the opposite in the schema")
                }
                let destinationClass = destination(of: relationship).objectClass
                if destinationClass != target {
                    report(key, "declared with \(target), but the destination entity's class is \(destinationClass)")
                }
            }
        }
        return problems
    }
}
