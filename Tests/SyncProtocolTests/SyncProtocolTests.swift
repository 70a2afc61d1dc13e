import Foundation
import SyncProtocol
import Testing

@Suite struct RevisionTagTests {
    @Test func formatsAndParsesStrongTags() {
        #expect(RevisionTag.format(42) == "\"42\"")
        #expect(RevisionTag.parse("\"42\"") == 42)
        #expect(RevisionTag.parse(RevisionTag.format(Int64.max)) == Int64.max)
    }

    @Test(arguments: [nil, "", "42", "\"\"", "W/\"42\"", "*", "\"1\", \"2\"", "\"-3\"", "\"0\"", "\"4 2\"", "\"99999999999999999999\""])
    func refusesWhatIsNotOneStrongRevision(_ tag: String?) {
        #expect(RevisionTag.parse(tag) == nil)
    }
}

@Suite struct SyncIdentifierTests {
    @Test func acceptsUUIDsAndUnreservedCharacters() {
        #expect(SyncIdentifier.isValid(UUID().uuidString))
        #expect(SyncIdentifier.isValid(UUID().uuidString.lowercased()))
        #expect(SyncIdentifier.isValid("a-b.c_d~e"))
        #expect(SyncIdentifier.isValid(String(repeating: "x", count: 128)))
    }

    @Test(arguments: ["", "a b", "a/b", "é", "a%20", "a?b", String(repeating: "x", count: 129)])
    func refusesWhatNeedsEscaping(_ text: String) {
        #expect(!SyncIdentifier.isValid(text))
    }
}

@Suite struct WireFormatTests {
    @Test func articleFlattensItsContentBesideIDAndRevision() throws {
        let article = Article(id: "a1", revision: 7, updatedAt: Date(timeIntervalSince1970: 1_700_000_000),
                              content: ArticlePayload(title: "T", body: "B", folder: "F", tags: ["x"], status: .ready, favorite: true))
        let json = try JSONSerialization.jsonObject(with: SyncJSON.encoder().encode(article)) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["id", "revision", "updatedAt", "title", "body", "folder", "tags", "status", "favorite"])
        #expect(json?["updatedAt"] as? String == "2023-11-14T22:13:20Z")
        #expect(try SyncJSON.decoder().decode(Article.self, from: SyncJSON.encoder().encode(article)) == article)
    }

    @Test func absentOptionalFieldsStayAbsent() throws {
        let content = ArticlePayload(title: "T", body: "B")
        let text = String(decoding: try SyncJSON.encoder().encode(content), as: UTF8.self)
        #expect(text == #"{"body":"B","title":"T"}"#)
    }

    @Test func decodingIgnoresFieldsANewerServerAdds() throws {
        let json = #"{"cursor":3,"id":"a","revision":3,"deleted":true,"changedAt":"2024-01-01T00:00:00Z","shard":"x"}"#
        let change = try SyncJSON.decoder().decode(ArticleChange.self, from: Data(json.utf8))
        #expect(change.deleted && change.article == nil && change.cursor == 3)
    }

    @Test func operationOutcomeUsesTheDocumentedKeys() throws {
        let outcome = OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a", status: 412, eTag: nil)
        let json = try JSONSerialization.jsonObject(with: SyncJSON.encoder().encode(outcome)) as? [String: Any]
        #expect(Set(json?.keys.map { $0 } ?? []) == ["key", "state", "method", "articleId", "status"])
    }

    @Test func unknownProblemTypesDecode() throws {
        let json = #"{"type":"urn:quire:problem:somethingNew","title":"New","status":418}"#
        let problem = try SyncJSON.decoder().decode(Problem.self, from: Data(json.utf8))
        #expect(problem.type.rawValue == "urn:quire:problem:somethingNew")
        #expect(problem.type != .staleRevision)
        #expect(ProblemType.staleRevision.rawValue == "urn:quire:problem:staleRevision")
    }

    @Test func pathsCarryTheVersion() {
        #expect(SyncPath.article("a1") == "/v1/articles/a1")
        #expect(SyncPath.operation("k") == "/v1/operations/k")
        #expect(SyncPath.changes == "/v1/changes")
    }
}

@Suite struct ArticleContentViolationTests {
    @Test func acceptsOrdinaryContent() {
        #expect(ArticlePayload(title: "", body: "").violation() == nil)
        #expect(ArticlePayload(title: "日本", body: String(repeating: "x", count: 100_000), tags: ["a", "b"]).violation() == nil)
    }

    @Test func namesTheFieldThatBreaksARule() {
        #expect(ArticlePayload(title: "a\u{0}b", body: "").violation()?.field == "title")
        #expect(ArticlePayload(title: "", body: "\u{0}").violation()?.field == "body")
        #expect(ArticlePayload(title: "", body: "", folder: String(repeating: "f", count: 4097)).violation()?.field == "folder")
        #expect(ArticlePayload(title: "", body: "", tags: ["ok", "b\u{0}"]).violation()?.field == "tags[1]")
        #expect(ArticlePayload(title: "", body: "", tags: Array(repeating: "t", count: 257)).violation()?.field == "tags")
        #expect(ArticlePayload(title: String(repeating: "é", count: 2049), body: "").violation()?.field == "title")
    }
}
