import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// The pure pieces that read a request's head: target, framing, entity tags, keys, log escapes.
@Suite struct RequestParsingTests {
    @Test func targetsSplitBeforeDecodingAndDecodeEachSegmentAlone() {
        let target = RequestTarget(raw: "/v1/articles/a%2Fb?after=x%2Dy&limit=5&limit=6&flag")
        #expect(target.path == "/v1/articles/a%2Fb")
        #expect(target.query == ["after": "x-y", "limit": "5", "flag": ""])
        #expect(target.segments == ["v1", "articles", "a%2Fb"])
        #expect(Route(target) == .article(id: "a/b"))
        #expect(Route(RequestTarget(raw: "/v1/articles/abc%00x")) == .article(id: "abc\0x"))
        #expect(Route(RequestTarget(raw: "/v1/articles/abc%zz")) == .article(id: "abc%zz"))
        #expect(Route(RequestTarget(raw: "http://host/v1/changes")) == nil)
        #expect(Route(RequestTarget(raw: "/v1//changes")) == nil)
        #expect(Route(RequestTarget(raw: "/v1/changes?since=3")) == .changes)
        #expect(RequestTarget.percentDecoded("%E2%82%AC") == "€")
        #expect(RequestTarget.percentDecoded("%FF") == nil)
        #expect(RequestTarget.percentDecoded("%4") == nil)
        #expect(RequestTarget(raw: "/x?a=%ZZ").query["a"] == "%ZZ")
    }

    @Test func identifiersExcludeDotSegments() {
        #expect(SyncIdentifier.isValid("a.b") && SyncIdentifier.isValid("...") && SyncIdentifier.isValid("~"))
        #expect(!SyncIdentifier.isValid(".") && !SyncIdentifier.isValid("..") && !SyncIdentifier.isValid("a/b"))
        #expect(!SyncIdentifier.isValid("a\0b") && !SyncIdentifier.isValid(""))
    }

    @Test func framingThatCouldHideARequestIsNamed() {
        func violation(_ version: String, _ lines: [(String, String)]) -> String? {
            var values: [String: String] = [:]
            var counts: [String: Int] = [:]
            for (name, value) in lines {
                values[name] = values[name].map { "\($0), \(value)" } ?? value
                counts[name, default: 0] += 1
            }
            return MessageFraming.violation(version: version, headers: values, counts: counts)?.field
        }
        let host = ("host", "h")
        #expect(violation("HTTP/1.1", [host]) == nil)
        #expect(violation("HTTP/1.1", [host, ("content-length", "12")]) == nil)
        #expect(violation("HTTP/1.1", [host, ("transfer-encoding", "Chunked")]) == nil)
        #expect(violation("HTTP/1.1", []) == "Host")
        #expect(violation("HTTP/1.0", []) == nil)
        #expect(violation("HTTP/1.1", [host, host]) == "Host")
        #expect(violation("HTTP/1.1", [host, ("content-length", "12"), ("content-length", "12")]) == "Content-Length")
        #expect(violation("HTTP/1.1", [host, ("content-length", "12, 13")]) == "Content-Length")
        #expect(violation("HTTP/1.1", [host, ("content-length", "-1")]) == "Content-Length")
        #expect(violation("HTTP/1.1", [host, ("content-length", "")]) == "Content-Length")
        #expect(violation("HTTP/1.1", [host, ("content-length", "5"), ("transfer-encoding", "chunked")]) == "Transfer-Encoding")
        #expect(violation("HTTP/1.1", [host, ("transfer-encoding", "gzip, chunked")]) == "Transfer-Encoding")
        #expect(violation("HTTP/1.0", [("transfer-encoding", "chunked")]) == "Transfer-Encoding")
    }

    @Test func revisionsAreTagsWithoutLeadingZerosAndOtherTagsAreWellFormedOrNot() {
        #expect(RevisionTag.parse("\"13\"") == 13)
        for tag in ["\"013\"", "\"0\"", "W/\"13\"", "13", "\"1 3\"", "\"+13\"", "\"\"", "*", "\"99999999999999999999\""] {
            #expect(RevisionTag.parse(tag) == nil, "\(tag)")
        }
        for tag in ["\"013\"", "W/\"13\"", "\"draft\"", "\"\"", "\"a!#~\""] { #expect(RevisionTag.isEntityTag(tag), "\(tag)") }
        for tag in ["13", "\"a\"b\"", "\"a b\"", "\"1\", \"2\"", "*", "W/13", "\""] { #expect(!RevisionTag.isEntityTag(tag), "\(tag)") }
    }

    @Test func idempotencyKeysMayBeStructuredFieldStrings() {
        #expect(SyncService.idempotencyKey("k-1") == "k-1")
        #expect(SyncService.idempotencyKey("\"k-1\"") == "k-1")
        #expect(SyncService.idempotencyKey(" \"k-1\" ") == "k-1")
        #expect(SyncService.idempotencyKey("\"k-1") == "\"k-1")
        #expect(SyncService.idempotencyKey("\"") == "\"")
    }

    @Test func logLinesEscapeControlCharactersAndBackslashes() {
        #expect(ServerLog.escaped("GET /v1/changes 200") == "GET /v1/changes 200")
        #expect(ServerLog.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(ServerLog.escaped("line\nforged") == "line\\u{A}forged")
        #expect(ServerLog.escaped("csi\u{9B}x") == "csi\\u{9B}x")
        #expect(ServerLog.escaped("back\\slash") == "back\\\\slash")
        #expect(ServerLog.escaped("café ✓") == "café ✓")
    }
}
