@testable import SyncServer
import SyncProtocol
import Testing

@Suite struct ArticlePayloadDecoderTests {
    func decode(_ json: String) -> Result<ArticlePayload, Problem> { ArticlePayloadDecoder.decode(Array(json.utf8)) }

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
}
