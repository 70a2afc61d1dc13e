import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// Writes and reads of single articles over loopback, with every status they can answer.
@Suite struct ArticleRequestTests {
    let draft = ArticlePayload(title: "Draft", body: "# Draft\n\nFirst words.", folder: "Essays", tags: ["a", "b"],
                               status: .draft, favorite: false)

    func withServer(_ body: (TestServer, LoopbackClient) throws -> Void) throws {
        let server = try TestServer()
        defer { server.stop() }
        try body(server, server.client(try server.addAccount("alice")))
    }

    @Test func createReadUpdateAndDelete() throws {
        try withServer { _, client in
            let created = try client.create("a1", draft)
            #expect(created.status == 201)
            #expect(created.header(SyncHeader.location) == "/v1/articles/a1")
            #expect(created.header(SyncHeader.contentType) == SyncMediaType.json)
            let article = try created.decode(Article.self)
            #expect(article.id == "a1" && article.content == draft && RevisionTag.format(article.revision) == created.header("etag"))

            let read = try client.send("GET", SyncPath.article("a1"))
            #expect(read.status == 200 && read.revision == article.revision)
            #expect(try read.decode(Article.self) == article)

            var edited = draft
            edited.body += "\nMore."
            edited.favorite = true
            let updated = try client.update("a1", edited, base: article.revision)
            #expect(updated.status == 200)
            #expect(try updated.decode(Article.self).content == edited)
            let second = try #require(updated.revision)
            #expect(second > article.revision)

            let deleted = try client.delete("a1", base: second)
            #expect(deleted.status == 200)
            let tombstone = try deleted.decode(ArticleChange.self)
            #expect(tombstone.deleted && tombstone.article == nil && tombstone.revision > second && deleted.revision == tombstone.revision)

            let gone = try client.send("GET", SyncPath.article("a1"))
            #expect(gone.status == 404 && gone.problem?.type == .notFound && gone.problem?.current == tombstone)
            #expect(try client.send("GET", SyncPath.article("never")).problem?.current == nil)
        }
    }

    @Test func aStaleBaseGets412WithTheServersVersion() throws {
        try withServer { _, client in
            let first = try #require(try client.create("a1", draft).revision)
            var mine = draft
            mine.title = "Mine"
            let theirs = try client.update("a1", mine, base: first)
            let current = try theirs.decode(Article.self)

            var late = draft
            late.title = "Late"
            let stale = try client.update("a1", late, base: first)
            #expect(stale.status == 412)
            #expect(stale.header(SyncHeader.contentType) == SyncMediaType.problem)
            #expect(stale.problem?.type == .staleRevision)
            #expect(stale.problem?.current?.article == current)
            #expect(try client.create("a1", late).problem?.current?.revision == current.revision)
            #expect(try client.send("GET", SyncPath.article("a1")).decode(Article.self) == current)

            let tombstone = try client.delete("a1", base: current.revision).decode(ArticleChange.self)
            let onDeleted = try client.update("a1", late, base: current.revision)
            #expect(onDeleted.status == 412 && onDeleted.problem?.current == tombstone)
            #expect(try client.delete("a1", base: tombstone.revision).status == 404)
            let restored = try client.create("a1", late)
            #expect(restored.status == 201 && restored.revision! > tombstone.revision)
            #expect(try client.update("nowhere", late, base: 1).status == 412)
        }
    }

    @Test func writesWithoutAPreconditionGet428() throws {
        try withServer { _, client in
            let put = try client.send("PUT", SyncPath.article("a1"), json: draft)
            #expect(put.status == 428 && put.problem?.type == .preconditionRequired)
            #expect(try client.send("DELETE", SyncPath.article("a1")).status == 428)
            #expect(try client.send("GET", SyncPath.article("a1")).status == 404)
        }
    }

    @Test func aBodyThatIsNotJSONGets415() throws {
        try withServer { _, client in
            let response = try client.send("PUT", SyncPath.article("a1"), headers: [SyncHeader.ifNoneMatch: "*", "Content-Type": "text/plain"],
                                           body: Array(#"{"title":"T","body":"B"}"#.utf8))
            #expect(response.status == 415 && response.problem?.type == .unsupportedMediaType)
            let charset = try client.send("PUT", SyncPath.article("a1"),
                                          headers: [SyncHeader.ifNoneMatch: "*", "Content-Type": "application/json; charset=utf-8"],
                                          body: Array(#"{"title":"T","body":"B"}"#.utf8))
            #expect(charset.status == 201)
        }
    }

    @Test func malformedRequestsGet400NamingTheField() throws {
        try withServer { _, client in
            func put(_ body: String, headers: [String: String] = [SyncHeader.ifNoneMatch: "*"], id: String = "a1") throws -> Problem? {
                var headers = headers
                headers["Content-Type"] = "application/json"
                let response = try client.send("PUT", "/v1/articles/\(id)", headers: headers, body: Array(body.utf8))
                #expect(response.status == 400)
                return response.problem
            }
            let valid = #"{"title":"T","body":"B"}"#
            #expect(try put("{not json")?.type == .malformedJSON)
            #expect(try put(#"{"title":"T"}"#)?.field == "body")
            #expect(try put(#"{"title":"T","body":"B","tags":[1]}"#)?.field == "tags[0]")
            #expect(try put(#"{"title":"T","body":"B","pinned":true}"#)?.field == "pinned")
            #expect(try put(valid, headers: [SyncHeader.ifMatch: "\"1\", \"2\""])?.field == "If-Match")
            #expect(try put(valid, headers: [SyncHeader.ifMatch: "*"])?.field == "If-Match")
            #expect(try put(valid, headers: [SyncHeader.ifMatch: "\"1\"", SyncHeader.ifNoneMatch: "*"])?.field == "If-None-Match")
            #expect(try put(valid, headers: [SyncHeader.ifNoneMatch: "\"3\""])?.field == "If-None-Match")
            #expect(try put(valid, headers: [SyncHeader.ifNoneMatch: "*", SyncHeader.idempotencyKey: "has space"])?.field == "Idempotency-Key")
            #expect(try put(valid, id: "a%20b")?.field == "id")
            for query in ["since=-1", "since=abc", "limit=0", "limit=x"] {
                let response = try client.send("GET", "/v1/changes?\(query)")
                #expect(response.status == 400 && response.problem?.field == query.components(separatedBy: "=")[0])
            }
            #expect(try client.send("GET", "/v1/articles?after=a%2Fb").problem?.field == "after")
            #expect(try client.send("GET", "/v1/changes").decode(ChangesPage.self).changes.isEmpty)
        }
    }

    @Test func unknownPathsGet404AndWrongMethods405() throws {
        try withServer { _, client in
            #expect(try client.send("GET", "/v1/nothing").status == 404)
            #expect(try client.send("GET", "/v2/changes").status == 404)
            #expect(try client.send("GET", "/v1/articles/a/b").status == 404)
            let post = try client.send("POST", SyncPath.changes, body: [])
            #expect(post.status == 405 && post.header(SyncHeader.allow) == "GET, HEAD" && post.problem?.type == .methodNotAllowed)
            #expect(try client.send("PATCH", SyncPath.article("a"), body: []).header(SyncHeader.allow) == "GET, HEAD, PUT, DELETE")
        }
    }
}
