import Foundation
@testable import SyncServer
import SyncProtocol
import Testing
import QuireTestSupport

/// `data/sync-api.yaml` against the server and the `SyncProtocol` types: every documented route
/// exists and every server route is documented; every example decodes into its type.
@Suite struct ContractTests {
    static let methods = ["get", "put", "post", "delete", "patch"]

    /// The types of the schemas whose examples must decode.
    static let decoders: [String: @Sendable (Data) throws -> Any] = [
        "ArticlePayload": { try SyncJSON.decoder().decode(ArticlePayload.self, from: $0) },
        "Article": { try SyncJSON.decoder().decode(Article.self, from: $0) },
        "ArticleChange": { try SyncJSON.decoder().decode(ArticleChange.self, from: $0) },
        "ChangesPage": { try SyncJSON.decoder().decode(ChangesPage.self, from: $0) },
        "ArticlesPage": { try SyncJSON.decoder().decode(ArticlesPage.self, from: $0) },
        "OperationOutcome": { try SyncJSON.decoder().decode(OperationOutcome.self, from: $0) },
        "Problem": { try SyncJSON.decoder().decode(Problem.self, from: $0) },
        "HealthStatus": { try SyncJSON.decoder().decode(HealthStatus.self, from: $0) },
    ]

    @Test func everyDocumentedRouteIsServedAndEveryServedRouteIsDocumented() throws {
        let paths = try #require(try SyncAPIDocument.load()["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, item in
            item.keys.filter(Self.methods.contains).map { "\($0.uppercased()) \(path)" }
        })
        let served = Set(Route.all.flatMap { route in route.methods.map { "\($0) \(route.template)" } })
        // The contract's description says that every GET is answered to HEAD too.
        let withHead = documented.union(documented.filter { $0.hasPrefix("GET ") }.map { "HEAD" + $0.dropFirst(3) })
        #expect(withHead == served)

        let server = try TestServer()
        defer { server.stop() }
        let client = server.client(try server.addAccount("alice"))
        for operation in documented.sorted() {
            let parts = operation.split(separator: " ")
            let path = parts[1].replacingOccurrences(of: "{id}", with: "a1").replacingOccurrences(of: "{key}", with: "k1")
                .replacingOccurrences(of: "{sha256}", with: String(repeating: "0", count: 64))
            let response = try client.send(String(parts[0]), path, headers: ["Content-Type": "application/json"], body: [])
            #expect(response.status != 405, "\(operation)")
            #expect(response.problem?.detail?.hasPrefix("no route") != true, "\(operation)")
        }
    }

    @Test func everyExampleDecodesIntoItsProtocolType() throws {
        let document = try SyncAPIDocument.load()
        func resolve(_ node: Any) throws -> Any {
            guard let object = node as? [String: Any], let reference = object["$ref"] as? String else { return node }
            var target: Any = document
            for key in reference.dropFirst(2).split(separator: "/") {
                target = try #require((target as? [String: Any])?[String(key)], "unresolved \(reference)")
            }
            return try resolve(target)
        }
        var decoded: [String: Int] = [:]
        var mediaTypes: [(String, [String: Any])] = []
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, item) in paths {
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                if let body = try (operation["requestBody"]).map(resolve) as? [String: Any],
                   let content = body["content"] as? [String: [String: Any]] {
                    mediaTypes += content.map { ("\(method) \(path) request \($0.key)", $0.value) }
                }
                for (status, response) in try #require(operation["responses"] as? [String: Any]) {
                    let resolved = try #require(try resolve(response) as? [String: Any])
                    #expect(resolved["description"] != nil, "\(method) \(path) \(status) has no description")
                    for (type, media) in resolved["content"] as? [String: [String: Any]] ?? [:] {
                        mediaTypes.append(("\(method) \(path) \(status) \(type)", media))
                        if status.hasPrefix("4") || status.hasPrefix("5"), path != SyncPath.health {
                            #expect(type == SyncMediaType.problem, "\(method) \(path) \(status) is not problem+json")
                        }
                    }
                }
                if path != SyncPath.health {
                    #expect((operation["responses"] as? [String: Any])?["401"] != nil, "\(method) \(path) lacks 401")
                }
            }
        }
        #expect(mediaTypes.count > 30)
        for (place, media) in mediaTypes {
            let schema = try #require(media["schema"] as? [String: Any], "\(place) has no schema")
            if place.hasSuffix(SyncMediaType.octetStream) {
                // A blob's bytes, as they are: no JSON type to decode into.
                #expect(schema["type"] as? String == "string" && schema["format"] as? String == "binary", "\(place)")
                continue
            }
            let name = try #require((schema["$ref"] as? String)?.components(separatedBy: "/").last, "\(place) has an inline schema")
            let decode = try #require(Self.decoders[name], "\(place): no protocol type for \(name)")
            let examples = try #require(media["examples"] as? [String: Any], "\(place) has no examples")
            for (exampleName, example) in examples {
                let value = try #require((try resolve(example) as? [String: Any])?["value"], "\(place) \(exampleName)")
                let data = try JSONSerialization.data(withJSONObject: value)
                do {
                    let decodedValue = try decode(data)
                    if name == "ArticlePayload" {
                        #expect(throws: Never.self, "\(place) \(exampleName) is refused by the server") {
                            try ArticlePayloadDecoder.decode(Array(data), protocolVersion: ProtocolVersion.current).get()
                        }
                    }
                    if let problem = decodedValue as? Problem {
                        #expect(place.contains(" \(problem.status) "), "\(place) \(exampleName) has status \(problem.status)")
                    }
                    decoded[name, default: 0] += 1
                } catch {
                    Issue.record("\(place) \(exampleName) does not decode as \(name): \(error)")
                }
            }
        }
        #expect(Set(decoded.keys) == Set(Self.decoders.keys))
    }
}
