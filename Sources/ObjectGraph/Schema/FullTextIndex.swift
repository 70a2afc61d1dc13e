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
///
/// A prefix query of few letters (`t*`) makes FTS5 merge the lists of every word that starts with
/// them. `prefixLengths: [1]` keeps a second index of the words' first letters (FTS5's
/// `prefix='1'`), which answers such a query from one list, for a larger file; changing the
/// lengths is a schema change whose migration rebuilds the index.
public struct FullTextIndex: Sendable, Hashable {
    /// The indexed attributes, in the order FTS5 keeps them as columns. Each is a stored `.string`
    /// attribute of the entity.
    public var attributes: [String]
    /// The lengths, in characters, of the word prefixes FTS5 indexes besides whole words (none:
    /// prefix queries read the word index).
    public var prefixLengths: [Int]

    /// An index over `attributes`, with prefix indexes of `prefixLengths` characters.
    public init(_ attributes: [String], prefixLengths: [Int] = []) {
        self.attributes = attributes
        self.prefixLengths = prefixLengths
    }

    /// The structure the schema checksum covers (an index without prefix lengths reads as before
    /// they existed, so older schemas keep their checksums).
    var canonicalLine: String {
        let prefixes = prefixLengths.isEmpty ? "" : " prefix \(prefixLengths.map(String.init).joined(separator: ","))"
        return " fulltext \(attributes.joined(separator: ","))\(prefixes)"
    }

    /// What is wrong with the index on `entity`, for ``Schema/validate()``.
    func problems(in entity: EntityDescription) -> [SchemaError.Problem] {
        var problems: [SchemaError.Problem] = []
        func report(_ property: String?, _ message: String) {
            problems.append(SchemaError.Problem(kind: .unknownKey, entity: entity.name, property: property, message: message))
        }
        if attributes.isEmpty { report(nil, "a full-text index lists no attributes") }
        // FTS5 accepts prefix lengths from 1 to 999, each once.
        if prefixLengths.contains(where: { !(1...999).contains($0) }) || Set(prefixLengths).count != prefixLengths.count {
            report(nil, "a full-text index's prefix lengths are distinct numbers from 1 to 999")
        }
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
