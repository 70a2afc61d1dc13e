@testable import SyncServer
import SyncProtocol
import Testing

@Suite struct ArticlePayloadDecoderTests {
    func decode(_ json: String, protocolVersion: Int = ProtocolVersion.current) -> Result<ArticlePayload, Problem> {
        ArticlePayloadDecoder.decode(Array(json.utf8), protocolVersion: protocolVersion)
    }

    @Test func readsEveryField() throws {
        let json = #"{"title":"T","body":"B","folder":"F","tags":["x","y"],"status":"published","favorite":true}"#
        #expect(try decode(json).get() == ArticlePayload(title: "T", body: "B", folder: "F", tags: ["x", "y"],
                                                          status: .published, favorite: true))
        #expect(try decode(#"{"title":"T","body":"B","folder":null}"#).get() == ArticlePayload(title: "T", body: "B"))
    }

    @Test(arguments: [
        ("", "malformedJSON", nil),
        ("{", "malformedJSON", nil),
        ("[1]", "malformedJSON", nil),
        (#""text""#, "malformedJSON", nil),
        (#"{"body":"B"}"#, "invalidField", "title"),
        (#"{"title":"T"}"#, "invalidField", "body"),
        (#"{"title":null,"body":"B"}"#, "invalidField", "title"),
        (#"{"title":1,"body":"B"}"#, "invalidField", "title"),
        (#"{"title":"T","body":"B","tags":"x"}"#, "invalidField", "tags"),
        (#"{"title":"T","body":"B","tags":["x",2]}"#, "invalidField", "tags[1]"),
        (#"{"title":"T","body":"B","favorite":"yes"}"#, "invalidField", "favorite"),
        (#"{"title":"T","body":"B","status":"archived"}"#, "invalidField", "status"),
        (#"{"title":"T","body":"B","colour":"red"}"#, "invalidField", "colour"),
        (#"{"title":"T","body":"a\u0000b"}"#, "invalidField", "body"),
    ] as [(String, String, String?)])
    func namesWhatIsWrong(_ json: String, _ type: String, _ field: String?) {
        guard case let .failure(problem) = decode(json) else {
            Issue.record("\(json) was accepted")
            return
        }
        #expect(problem.status == 400)
        #expect(problem.type.rawValue == "urn:quire:problem:\(type)")
        #expect(problem.field == field)
    }

    /// A server speaking a version from before article languages refuses `language`, as such
    /// servers did; the current one stores it.
    @Test func languageIsAFieldFromProtocolVersion2On() throws {
        let json = #"{"title":"T","body":"B","language":"de_DE"}"#
        #expect(try decode(json).get() == ArticlePayload(title: "T", body: "B", language: "de_DE"))
        guard case let .failure(problem) = decode(json, protocolVersion: 1) else {
            Issue.record("a version 1 server accepted language")
            return
        }
        #expect(problem.type.rawValue == "urn:quire:problem:invalidField" && problem.field == "language")
        #expect(try decode(#"{"title":"T","body":"B"}"#, protocolVersion: 1).get() == ArticlePayload(title: "T", body: "B"))
    }
}
