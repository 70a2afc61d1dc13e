extension PersistentStore {
    /// Rebuilds every full-text index from its entity's rows, in one transaction. An index is
    /// derived data: this is how a damaged one is repaired, or one added by a migration is filled.
    public func rebuildFullTextIndexes() throws {
        try write { connection, _ in
            for entity in model.entities where entity.description.fullTextIndex != nil {
                try FullTextLayout.fill(FullTextLayout.tableName(of: entity), on: connection)
            }
        }
    }

    /// Checks that every full-text index agrees with its entity's rows; throws ``StoreError`` with
    /// kind `.corrupt`, naming the index, when one does not (``rebuildFullTextIndexes()`` repairs it).
    public func checkFullTextIndexes() throws {
        try read { connection in
            for entity in model.entities where entity.description.fullTextIndex != nil {
                let fts = FullTextLayout.table(of: entity)
                // With rank 1, FTS5 also compares the index with the content table.
                let sql = "INSERT INTO \(fts) (\(fts), rank) VALUES ('integrity-check', 1)"
                do {
                    try connection.execute(sql)
                } catch let error as StoreError where error.kind == .corrupt {
                    throw StoreError(
                        kind: .corrupt, resultCode: error.resultCode,
                        message: "the full-text index of \(entity.name) does not match its rows", statement: sql,
                        path: error.path)
                }
            }
        }
    }
}
