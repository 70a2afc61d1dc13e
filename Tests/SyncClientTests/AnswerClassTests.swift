import Foundation
import SyncClient
import SyncProtocol
import Testing
import QuireTestSupport

/// Every status `data/sync-api.yaml` documents for the requests the client makes has the class
/// the sync worker's design gives it.
@Suite struct AnswerClassTests {
    static let endpoints: [String: SyncEndpoint] = [
        "PUT /v1/articles/{id}": .putArticle, "DELETE /v1/articles/{id}": .deleteArticle, "GET /v1/changes": .changes,
        "GET /v1/articles": .snapshot, "GET /v1/operations/{key}": .operation, "GET /v1/health": .health,
        "GET /v1/blobs/{sha256}": .readBlob, "PUT /v1/blobs/{sha256}": .putBlob,
    ]

    /// The decisions, one line per documented answer.
    static let expected: [String: AnswerClass] = {
        var table: [String: AnswerClass] = [:]
        let common: [String: AnswerClass] = ["200": .success, "400": .terminal, "401": .accountRejected, "429": .retryable,
                                             "431": .terminal, "500": .retryable, "503": .retryable]
        let writes = common.merging(["201": .success, "409": .retryable, "412": .conflict, "413": .terminal, "415": .terminal,
                                     "422": .terminal, "428": .terminal]) { $1 }
        for (status, kind) in writes { table["PUT /v1/articles/{id} \(status)"] = kind }
        table["PUT /v1/articles/{id} 424"] = .terminal
        for (status, kind) in writes where status != "201" && status != "415" { table["DELETE /v1/articles/{id} \(status)"] = kind }
        table["DELETE /v1/articles/{id} 404"] = .success
        for (status, kind) in common { table["GET /v1/changes \(status)"] = kind }
        table["GET /v1/changes 410"] = .resyncRequired
        for (status, kind) in common { table["GET /v1/articles \(status)"] = kind }
        for (status, kind) in common { table["GET /v1/operations/{key} \(status)"] = kind }
        table["GET /v1/operations/{key} 404"] = .success
        table["GET /v1/health 200"] = .success
        table["GET /v1/health 503"] = .retryable
        for (status, kind) in common { table["GET /v1/blobs/{sha256} \(status)"] = kind }
        table["GET /v1/blobs/{sha256} 404"] = .success
        for (status, kind) in common { table["PUT /v1/blobs/{sha256} \(status)"] = kind }
        table["PUT /v1/blobs/{sha256} 201"] = .success
        table["PUT /v1/blobs/{sha256} 413"] = .terminal
        table["PUT /v1/blobs/{sha256} 422"] = .terminal
        table["PUT /v1/blobs/{sha256} 507"] = .terminal
        return table
    }()

    @Test func everyDocumentedAnswerOfTheClientsRequestsHasItsClass() throws {
        let paths = try #require(try SyncAPIDocument.load()["paths"] as? [String: [String: Any]])
        var documented: [String: AnswerClass] = [:]
        var notUsed: [String] = []
        for (path, item) in paths {
            for method in ["get", "put", "delete", "post", "patch"] {
                guard let operation = item[method] as? [String: Any] else { continue }
                let name = "\(method.uppercased()) \(path)"
                guard let endpoint = Self.endpoints[name] else {
                    notUsed.append(name)
                    continue
                }
                for status in try #require(operation["responses"] as? [String: Any]).keys {
                    documented["\(name) \(status)"] = AnswerClass.of(status: try #require(Int(status)), endpoint: endpoint)
                }
            }
        }
        // The worker reads single articles from its own store, never from the server.
        #expect(notUsed == ["GET /v1/articles/{id}"])
        #expect(documented == Self.expected)
    }

    @Test func statusesTheDocumentDoesNotListAreClassifiedSafely() {
        for endpoint in SyncEndpoint.allCases {
            #expect(AnswerClass.of(status: 502, endpoint: endpoint) == .retryable)
            #expect(AnswerClass.of(status: 408, endpoint: endpoint) == .retryable)
            #expect(AnswerClass.of(status: 403, endpoint: endpoint) == .terminal)
            #expect(AnswerClass.of(status: 302, endpoint: endpoint) == .unexpected)
            #expect(AnswerClass.of(status: 100, endpoint: endpoint) == .unexpected)
        }
        #expect(AnswerClass.of(status: 404, endpoint: .putArticle) == .terminal)
        #expect(AnswerClass.of(status: 410, endpoint: .putArticle) == .terminal)
        #expect(AnswerClass.of(status: 409, endpoint: .changes) == .terminal)
        #expect(AnswerClass.of(status: 412, endpoint: .snapshot) == .terminal)
    }
}
