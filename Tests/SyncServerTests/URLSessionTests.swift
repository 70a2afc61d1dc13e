import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SyncServer
import SyncProtocol
import Testing

/// The sync client will speak through URLSession: the protocol works through it as through raw
/// sockets, including the answers decided before a body is read.
@Suite struct URLSessionTests {
    func request(_ port: UInt16, _ method: String, _ path: String, token: String, headers: [String: String] = [:],
                 body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: SyncHeader.authorization)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue(SyncMediaType.json, forHTTPHeaderField: SyncHeader.contentType)
        }
        return request
    }

    @Test func aURLSessionClientCreatesUpdatesAndSeesConflictsAndLimits() async throws {
        let server = try TestServer { $0.maximumBodyBytes = 64 * 1024 }
        defer { server.stop() }
        let token = try server.addAccount("alice")
        let session = URLSession(configuration: .ephemeral)
        let port = server.port
        let content = try SyncJSON.encoder().encode(ArticlePayload(title: "Through URLSession", body: "Body"))

        let (createdData, createdResponse) = try await session.data(for: request(
            port, "PUT", SyncPath.article("u1"), token: token,
            headers: [SyncHeader.ifNoneMatch: "*", SyncHeader.idempotencyKey: "u-op-1"], body: content))
        let created = try #require(createdResponse as? HTTPURLResponse)
        #expect(created.statusCode == 201)
        let revision = try #require(RevisionTag.parse(created.value(forHTTPHeaderField: SyncHeader.eTag)))
        #expect(try SyncJSON.decoder().decode(Article.self, from: createdData).revision == revision)

        let (_, updated) = try await session.data(for: request(
            port, "PUT", SyncPath.article("u1"), token: token, headers: [SyncHeader.ifMatch: RevisionTag.format(revision)], body: content))
        #expect((updated as? HTTPURLResponse)?.statusCode == 200)

        let (staleData, stale) = try await session.data(for: request(
            port, "PUT", SyncPath.article("u1"), token: token, headers: [SyncHeader.ifMatch: RevisionTag.format(revision)], body: content))
        #expect((stale as? HTTPURLResponse)?.statusCode == 412)
        #expect((stale as? HTTPURLResponse)?.value(forHTTPHeaderField: SyncHeader.contentType) == SyncMediaType.problem)
        let problem = try SyncJSON.decoder().decode(Problem.self, from: staleData)
        #expect(problem.type == .staleRevision && problem.current?.revision ?? 0 > revision)

        let big = try SyncJSON.encoder().encode(ArticlePayload(title: "Big", body: String(repeating: "x", count: 1_000_000)))
        let (tooLargeData, tooLarge) = try await session.data(for: request(
            port, "PUT", SyncPath.article("u2"), token: token, headers: [SyncHeader.ifNoneMatch: "*"], body: big))
        #expect((tooLarge as? HTTPURLResponse)?.statusCode == 413)
        #expect(try SyncJSON.decoder().decode(Problem.self, from: tooLargeData).type == .payloadTooLarge)

        let (outcomeData, _) = try await session.data(for: request(port, "GET", SyncPath.operation("u-op-1"), token: token))
        #expect(try SyncJSON.decoder().decode(OperationOutcome.self, from: outcomeData).status == 201)
        session.invalidateAndCancel()
    }
}
