import Foundation
import SyncProtocol

extension SQLConnection {
    /// The columns `ArticleChange(row:)` reads, from `revisions` aliased `r`.
    static var revisionColumns: String {
        "r.cursor, r.article_id, r.deleted, r.changed_at, r.title, r.body, r.folder, r.tags, r.status, r.favorite"
    }

    func currentVersion(of articleID: String, account: AccountID) throws -> ArticleChange? {
        let sql = """
            SELECT \(Self.revisionColumns) FROM articles a
            JOIN revisions r ON r.account_id = a.account_id AND r.cursor = a.revision
            WHERE a.account_id = $1 AND a.article_id = $2
            """
        return try first(sql, [.integer(account.rawValue), .text(articleID)], ArticleChange.init(row:))
    }

    func revisions(account: AccountID, after cursor: Int64, limit: Int) throws -> [ArticleChange] {
        let sql = """
            SELECT \(Self.revisionColumns) FROM revisions r
            WHERE r.account_id = $1 AND r.cursor > $2 ORDER BY r.cursor LIMIT $3
            """
        return try all(sql, [.integer(account.rawValue), .integer(cursor), .integer(Int64(limit))], ArticleChange.init(row:))
    }

    func liveArticles(account: AccountID, after articleID: String, limit: Int) throws -> [Article] {
        let sql = """
            SELECT \(Self.revisionColumns) FROM articles a
            JOIN revisions r ON r.account_id = a.account_id AND r.cursor = a.revision
            WHERE a.account_id = $1 AND a.deleted = 0 AND a.article_id > $2
            ORDER BY a.article_id LIMIT $3
            """
        let parameters: [SQLValue] = [.integer(account.rawValue), .text(articleID), .integer(Int64(limit))]
        return try all(sql, parameters) { row in
            guard let article = try ArticleChange(row: row).article else {
                throw StorageError.unreadableValue(table: "revisions", column: "deleted", detail: "live article without content")
            }
            return article
        }
    }

    /// Writes the change at `cursor`: its revision row, and the article's pointer to it.
    func insertVersion(
        of articleID: String, content: ArticleContent?, cursor: Int64, account: AccountID, at date: Date
    ) throws {
        let tags = try content?.tags.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try execute(
            """
            INSERT INTO revisions (account_id, cursor, article_id, deleted, changed_at, title, body, folder, tags, status, favorite)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
            """,
            [.integer(account.rawValue), .integer(cursor), .text(articleID), SQLValue(content == nil), SQLValue(date),
             SQLValue(content?.title), SQLValue(content?.body), SQLValue(content?.folder), SQLValue(tags),
             SQLValue(content?.status?.rawValue), content?.favorite.map(SQLValue.init) ?? .null])
        try execute(
            """
            INSERT INTO articles (account_id, article_id, revision, deleted, changed_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (account_id, article_id)
            DO UPDATE SET revision = excluded.revision, deleted = excluded.deleted, changed_at = excluded.changed_at
            """,
            [.integer(account.rawValue), .text(articleID), .integer(cursor), SQLValue(content == nil), SQLValue(date)])
        try execute("UPDATE accounts SET head = $2 WHERE id = $1", [.integer(account.rawValue), .integer(cursor)])
    }
}

extension ArticleChange {
    /// Reads `SQLConnection.revisionColumns`.
    init(row: SQLRow) throws {
        let cursor = try row.integer(0)
        let id = row.text(1)
        let deleted = try row.integer(2) != 0
        let changedAt = try row.date(3)
        var article: Article?
        if !deleted {
            var tags: [String]?
            if let json = row.optionalText(7) {
                do {
                    tags = try JSONDecoder().decode([String].self, from: Data(json.utf8))
                } catch {
                    throw StorageError.unreadableValue(table: "revisions", column: "tags", detail: "\(error)")
                }
            }
            var status: ArticleStatus?
            if let text = row.optionalText(8) {
                guard let known = ArticleStatus(rawValue: text) else {
                    throw StorageError.unreadableValue(table: "revisions", column: "status", detail: "'\(text)'")
                }
                status = known
            }
            let content = ArticleContent(
                title: row.text(4), body: row.text(5), folder: row.optionalText(6), tags: tags, status: status,
                favorite: try row.optionalInteger(9).map { $0 != 0 })
            article = Article(id: id, revision: cursor, updatedAt: changedAt, content: content)
        }
        self.init(cursor: cursor, id: id, revision: cursor, deleted: deleted, changedAt: changedAt, article: article)
    }
}
