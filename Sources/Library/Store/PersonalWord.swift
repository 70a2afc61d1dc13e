import ObjectGraph

/// A word of the writer's personal dictionary: one the spell checker accepts in articles of its
/// language (the `PersonalWord` entity, since schema V4). Kept in the library, so that it moves
/// with it; local to this library (not synced). ``Library/addPersonalWord(_:language:)`` adds one.
public final class PersonalWord: ManagedObject {
    /// The dictionary tag of the language it belongs to (`en_US`).
    @Attribute("language") public var language: String
    /// The word, as the writer wrote it.
    @Attribute("word") public var word: String
}
