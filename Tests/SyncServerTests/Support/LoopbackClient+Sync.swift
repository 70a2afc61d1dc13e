import SyncProtocol

/// The sync protocol's requests, spelled once for the tests.
extension LoopbackClient {
    @discardableResult
    func create(_ id: String, _ content: ArticlePayload, key: String? = nil) throws -> TestResponse {
        var headers = [SyncHeader.ifNoneMatch: "*"]
        if let key { headers[SyncHeader.idempotencyKey] = key }
        return try send("PUT", SyncPath.article(id), headers: headers, json: content)
    }

    @discardableResult
    func update(_ id: String, _ content: ArticlePayload, base: Int64, key: String? = nil) throws -> TestResponse {
        var headers = [SyncHeader.ifMatch: RevisionTag.format(base)]
        if let key { headers[SyncHeader.idempotencyKey] = key }
        return try send("PUT", SyncPath.article(id), headers: headers, json: content)
    }

    @discardableResult
    func delete(_ id: String, base: Int64, key: String? = nil) throws -> TestResponse {
        var headers = [SyncHeader.ifMatch: RevisionTag.format(base)]
        if let key { headers[SyncHeader.idempotencyKey] = key }
        return try send("DELETE", SyncPath.article(id), headers: headers)
    }

    func changes(since: Int64, limit: Int? = nil) throws -> TestResponse {
        try send("GET", SyncPath.changes + "?since=\(since)" + (limit.map { "&limit=\($0)" } ?? ""))
    }

    /// Every change after `since`, page by page.
    func allChanges(since: Int64 = 0) throws -> [ArticleChange] {
        var cursor = since
        var changes: [ArticleChange] = []
        while true {
            let response = try self.changes(since: cursor, limit: 1000)
            guard response.status == 200 else { throw LoopbackError.malformed("changes: \(response.status) \(response.text)") }
            let page = try response.decode(ChangesPage.self)
            changes += page.changes
            cursor = page.nextCursor
            if !page.hasMore { return changes }
        }
    }
}

extension TestResponse {
    /// The revision in `ETag`.
    var revision: Int64? { RevisionTag.parse(header(SyncHeader.eTag)) }
}
