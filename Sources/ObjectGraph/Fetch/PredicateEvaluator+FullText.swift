extension PredicateEvaluator {
    /// Whether an object in memory matches a full-text query the way FTS5 would match its row:
    /// every phrase occurs, word after word, in one of the indexed attributes.
    func matchesFullText(_ query: FullTextQuery, on object: ManagedObject) throws -> Bool {
        guard let index = object.entityModel.description.fullTextIndex else {
            throw ObjectGraphError.invalidFetchRequest(entity: object.entityModel.name, reason: "the entity has no full-text index")
        }
        guard !query.isEmpty else { return false }
        var columns: [[String]] = []
        for name in index.attributes {
            if case .attribute(.string(let text)) = try value(at: [name], of: object) {
                columns.append(FullTextTokenizer.foldedWords(in: text))
            }
        }
        return query.phrases.allSatisfy { phrase in
            let words = phrase.map(FullTextTokenizer.fold)
            return columns.contains { Self.contains(words, in: $0, lastIsPrefix: query.matchesPrefixes) }
        }
    }

    private static func contains(_ phrase: [String], in words: [String], lastIsPrefix: Bool) -> Bool {
        guard !phrase.isEmpty, phrase.count <= words.count else { return false }
        for start in 0...(words.count - phrase.count) {
            var matched = true
            for (offset, word) in phrase.enumerated() {
                let candidate = words[start + offset]
                let isLast = offset == phrase.count - 1
                if isLast && lastIsPrefix ? !candidate.hasPrefix(word) : candidate != word {
                    matched = false
                    break
                }
            }
            if matched { return true }
        }
        return false
    }
}
