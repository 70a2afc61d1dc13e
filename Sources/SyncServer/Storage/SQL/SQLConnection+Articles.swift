import Foundation
import SyncProtocol

extension SQLConnection {
    /// The columns `ArticleChange(row:at:tags:)` reads, from `revisions` aliased `r`.
    static var revisionColumns: String {
        "r.cursor, r.article_id, r.deleted, r.changed_at, r.title, r.body, r.folder, r.tags, r.status, r.favorite, r.language"
    }

    func currentVersion(of articleID: String, account: AccountID) throws -> ArticleChange? {
        let sql = """
            SELECT \(Self.revisionColumns) FROM articles a
            JOIN revisions r ON r.account_id = a.account_id AND r.cursor = a.revision
            WHERE a.account_id = $1 AND a.article_id = $2
            """
        let tags = TagsDecoder()
        return try first(sql, [.integer(account.rawValue), .text(articleID)]) { try ArticleChange(row: $0, at: 0, tags: tags) }
    }

    /// Changes after `cursor` in commit order: at most `limit`, and no more once the titles and
    /// bodies before a change reach `maximumBytes` (the first always comes). Whether more follow.
    ///
    /// The sizes are summed by the database over the candidate rows' lengths, so that the rows
    /// past the budget are never read into this process.
    func revisions(account: AccountID, after cursor: Int64, limit: Int, maximumBytes: Int) throws
        -> (changes: [ArticleChange], hasMore: Bool) {
        let sql = """
            SELECT \(Self.revisionColumns), w.candidates FROM (
                SELECT p.cursor, SUM(p.size) OVER (ORDER BY p.cursor ROWS UNBOUNDED PRECEDING) - p.size AS before_bytes,
                    COUNT(*) OVER () AS candidates
                FROM (SELECT r.cursor, \(contentBytes("r")) AS size FROM revisions r
                      WHERE r.account_id = $1 AND r.cursor > $2 ORDER BY r.cursor LIMIT $3) p
            ) w
            JOIN revisions r ON r.account_id = $1 AND r.cursor = w.cursor
            WHERE w.before_bytes < $4 ORDER BY r.cursor
            """
        let parameters: [SQLValue] = [.integer(account.rawValue), .integer(cursor), .integer(Int64(limit) + 1),
                                      .integer(Int64(maximumBytes))]
        let tags = TagsDecoder()
        var candidates = 0
        let rows = try all(sql, parameters) { row in
            candidates = Int(try row.integer(11))
            return try ArticleChange(row: row, at: 0, tags: tags)
        }
        let changes = Array(rows.prefix(limit))
        return (changes, candidates > changes.count)
    }

    /// Live articles with IDs after `articleID`, bytewise, cut as `revisions` cuts its pages.
    func liveArticles(account: AccountID, after articleID: String, limit: Int, maximumBytes: Int) throws
        -> (articles: [Article], hasMore: Bool) {
        let sql = """
            SELECT \(Self.revisionColumns), w.candidates FROM (
                SELECT p.article_id, p.revision,
                    SUM(p.size) OVER (ORDER BY p.article_id ROWS UNBOUNDED PRECEDING) - p.size AS before_bytes,
                    COUNT(*) OVER () AS candidates
                FROM (SELECT a.article_id, a.revision, \(contentBytes("r")) AS size FROM articles a
                      JOIN revisions r ON r.account_id = a.account_id AND r.cursor = a.revision
                      WHERE a.account_id = $1 AND a.deleted = 0 AND a.article_id > $2 ORDER BY a.article_id LIMIT $3) p
            ) w
            JOIN revisions r ON r.account_id = $1 AND r.cursor = w.revision
            WHERE w.before_bytes < $4 ORDER BY w.article_id
            """
        let parameters: [SQLValue] = [.integer(account.rawValue), .text(articleID), .integer(Int64(limit) + 1),
                                      .integer(Int64(maximumBytes))]
        let tags = TagsDecoder()
        var candidates = 0
        let rows = try all(sql, parameters) { row in
            candidates = Int(try row.integer(11))
            guard let article = try ArticleChange(row: row, at: 0, tags: tags).article else {
                throw StorageError.unreadableValue(table: "revisions", column: "deleted", detail: "live article without content")
            }
            return article
        }
        let articles = Array(rows.prefix(limit))
        return (articles, candidates > articles.count)
    }

    /// The bytes of a revision's title and body, in SQL over the table aliased `table`.
    private func contentBytes(_ table: String) -> String {
        "COALESCE(\(dialect.byteLength("\(table).title")), 0) + COALESCE(\(dialect.byteLength("\(table).body")), 0)"
    }

    /// Everything a write decides on, read at the start of its transaction: the account's last
    /// cursor (locking the account on PostgreSQL, which serializes its writers across processes),
    /// then the article's current version and which claim holds `key`.
    ///
    /// Two statements on purpose: under PostgreSQL's read committed isolation a statement that
    /// waited for a row lock re-reads only the locked row, so the article must be read by a
    /// statement that starts after the lock is held.
    func writeState(account: AccountID, articleID: String, key: String?) throws -> WriteState? {
        guard let head = try feedCounters(account, locking: true)?.head else { return nil }
        let sql = """
            SELECT (SELECT o.claim_id FROM operations o WHERE o.account_id = $1 AND o.key = $3), \(Self.revisionColumns)
            FROM (SELECT 1) AS one
            LEFT JOIN articles a ON a.account_id = $1 AND a.article_id = $2
            LEFT JOIN revisions r ON r.account_id = a.account_id AND r.cursor = a.revision
            """
        let tags = TagsDecoder()
        return try first(sql, [.integer(account.rawValue), .text(articleID), SQLValue(key)]) { row in
            WriteState(head: head, claimHolder: row.optionalText(0),
                       current: row.isNull(1) ? nil : try ArticleChange(row: row, at: 1, tags: tags))
        }
    }

    /// The statements that commit a change at `cursor`: its revision row, the article's pointer to
    /// it, and the account's head.
    func versionStatements(
        of articleID: String, content: ArticlePayload?, cursor: Int64, account: AccountID, at date: Date
    ) throws -> [SQLStatement] {
        let tags = try content?.tags.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        return [
            SQLStatement(
                """
                INSERT INTO revisions (account_id, cursor, article_id, deleted, changed_at, title, body, folder, tags, status, favorite, language)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                """,
                [.integer(account.rawValue), .integer(cursor), .text(articleID), SQLValue(content == nil), SQLValue(date),
                 SQLValue(content?.title), SQLValue(content?.body), SQLValue(content?.folder), SQLValue(tags),
                 SQLValue(content?.status?.rawValue), content?.favorite.map(SQLValue.init) ?? .null,
                 SQLValue(content?.language)]),
            SQLStatement(
                """
                INSERT INTO articles (account_id, article_id, revision, deleted, changed_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (account_id, article_id)
                DO UPDATE SET revision = excluded.revision, deleted = excluded.deleted, changed_at = excluded.changed_at
                """,
                [.integer(account.rawValue), .text(articleID), .integer(cursor), SQLValue(content == nil), SQLValue(date)]),
            SQLStatement("UPDATE accounts SET head = $2 WHERE id = $1", [.integer(account.rawValue), .integer(cursor)]),
        ]
    }
}

/// What `writeState` read.
struct WriteState {
    var head: Int64
    /// The claim ID holding the request's idempotency key, while it runs.
    var claimHolder: String?
    var current: ArticleChange?
}

/// Decodes stored tags with one decoder per query rather than one per row.
final class TagsDecoder {
    private let decoder = JSONDecoder()

    func decode(_ json: String) throws -> [String] {
        do {
            return try decoder.decode([String].self, from: Data(json.utf8))
        } catch {
            throw StorageError.unreadableValue(table: "revisions", column: "tags", detail: "\(error)")
        }
    }
}

extension ArticleChange {
    /// Reads `SQLConnection.revisionColumns`, starting at column `offset`.
    init(row: SQLRow, at offset: Int32, tags: TagsDecoder) throws {
        let cursor = try row.integer(offset)
        let id = row.text(offset + 1)
        let deleted = try row.integer(offset + 2) != 0
        let changedAt = try row.date(offset + 3)
        var article: Article?
        if !deleted {
            var status: ArticleStatus?
            if let text = row.optionalText(offset + 8) {
                guard let known = ArticleStatus(rawValue: text) else {
                    throw StorageError.unreadableValue(table: "revisions", column: "status", detail: "'\(text)'")
                }
                status = known
            }
            let content = ArticlePayload(
                title: row.text(offset + 4), body: row.text(offset + 5), folder: row.optionalText(offset + 6),
                tags: try row.optionalText(offset + 7).map(tags.decode), status: status,
                favorite: try row.optionalInteger(offset + 9).map { $0 != 0 }, language: row.optionalText(offset + 10))
            article = Article(id: id, revision: cursor, updatedAt: changedAt, content: content)
        }
        self.init(cursor: cursor, id: id, revision: cursor, deleted: deleted, changedAt: changedAt, article: article)
    }
}
