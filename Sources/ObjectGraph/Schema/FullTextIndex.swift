/// A full-text index over some string attributes of an entity, kept by SQLite FTS5.
///
///     EntityDescription("Article", class: Article.self,
///         attributes: [AttributeDescription("title", .string), AttributeDescription("body", .string)],
///         fullTextIndex: FullTextIndex(["title", "body"]))
///
///     let request = FetchRequest<Article>(
///         predicate: .matches(FullTextQuery("swift lin")) && \.isDraft == true,
///         sortDescriptors: [.relevance])
///
/// The store keeps the index in an FTS5 table that reads its text from the entity's table
/// (`content=`), and triggers on that table update it, so the index changes in the same
/// transaction as the row: a save, a batch update or a rollback can never leave them apart.
/// Text is split into words by FTS5's `unicode61` tokenizer, which folds case and removes
/// diacritics ("Café" is found by "cafe"); a run of CJK characters without spaces is one word, so
/// such text is found by its beginning (a prefix query) but not by a word inside it.
///
/// The index is derived data: ``PersistentStore/rebuildFullTextIndexes()`` rebuilds it from the rows.
public struct FullTextIndex: Sendable, Hashable {
    /// The indexed attributes, in the order FTS5 keeps them as columns. Each is a stored `.string`
    /// attribute of the entity.
    public var attributes: [String]

    /// An index over `attributes`.
    public init(_ attributes: [String]) {
        self.attributes = attributes
    }

    /// The structure the schema checksum covers.
    var canonicalLine: String { " fulltext \(attributes.joined(separator: ","))" }

    /// What is wrong with the index on `entity`, for ``Schema/validate()``.
    func problems(in entity: EntityDescription) -> [SchemaError.Problem] {
        var problems: [SchemaError.Problem] = []
        func report(_ property: String?, _ message: String) {
            problems.append(SchemaError.Problem(kind: .unknownKey, entity: entity.name, property: property, message: message))
        }
        if attributes.isEmpty { report(nil, "a full-text index lists no attributes") }
        var seen = Set<String>()
        for name in attributes {
            if !seen.insert(name).inserted { report(name, "a full-text index lists the attribute twice") }
            let attribute = entity.attribute(named: name)
            if attribute?.type != .string || attribute?.isTransient != false {
                report(name, "full-text indexes take stored string attributes of the entity")
            }
        }
        return problems
    }
}
