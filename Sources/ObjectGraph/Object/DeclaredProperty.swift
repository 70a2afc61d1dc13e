/// What a property wrapper of a ``ManagedObject`` subclass declares, read through `Mirror` when the
/// container loads so that a class and its entity cannot silently disagree.
protocol DeclaredProperty {
    var declaredKey: PropertyKey { get }
    var declaredKind: DeclaredPropertyKind { get }
}

enum DeclaredPropertyKind {
    case attribute(AttributeType, optional: Bool)
    case codable
    case toOne(ManagedObject.Type)
    case toMany(ManagedObject.Type)
}
