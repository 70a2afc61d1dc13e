import Foundation
import SyncProtocol

/// The checks of a request's head that decide where its body ends and whom it is for, made
/// before the body is read (RFC 9112 §3.2, §6.1, §6.3).
///
/// Two `Content-Length` headers, or one beside `Transfer-Encoding`, let a proxy and this server
/// disagree on where a request ends, so that bytes one of them takes for a body the other answers
/// as a second request (request smuggling). Such a request is refused with 400 and its connection
/// closed, since nothing after it on the connection can be trusted.
enum MessageFraming {
    /// What is wrong with the head, or nil when its framing is sound.
    ///
    /// - Parameters:
    ///   - version: `HTTP/1.1` or `HTTP/1.0`, as sent.
    ///   - headers: values by lowercase name, repeated headers joined by ", ".
    ///   - counts: how many times each lowercase name was sent.
    static func violation(version: String, headers: [String: String], counts: [String: Int]) -> FieldViolation? {
        let hosts = counts["host"] ?? 0
        if hosts > 1 || (version == "HTTP/1.1" && hosts == 0) {
            return FieldViolation(field: "Host", reason: "must be sent exactly once with HTTP/1.1")
        }
        if let length = headers["content-length"] {
            guard counts["content-length"] == 1, !length.isEmpty, length.utf8.allSatisfy({ (48...57).contains($0) }) else {
                return FieldViolation(field: "Content-Length", reason: "must be sent once, as a decimal number")
            }
        }
        if let coding = headers["transfer-encoding"] {
            if headers["content-length"] != nil {
                return FieldViolation(field: "Transfer-Encoding", reason: "cannot be sent with Content-Length")
            }
            guard version == "HTTP/1.1", counts["transfer-encoding"] == 1,
                  coding.trimmingCharacters(in: .whitespaces).lowercased() == "chunked"
            else {
                return FieldViolation(field: "Transfer-Encoding", reason: "must be chunked, once, with HTTP/1.1")
            }
        }
        return nil
    }
}
