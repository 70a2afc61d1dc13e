import Foundation
import SyncProtocol

/// Reads a `PUT` body into `ArticlePayload`, naming the first field that is wrong.
///
/// Stricter than `Decodable` on purpose: a field the server does not know is refused, so that a
/// newer client's data is never dropped in silence. Which fields it knows depends on the
/// ``ProtocolVersion`` the server speaks.
enum ArticlePayloadDecoder {
    static func decode(_ body: [UInt8], protocolVersion: Int) -> Result<ArticlePayload, Problem> {
        let data = Data(body)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            return .failure(.malformedJSON("the body is not valid JSON"))
        }
        guard let fields = object as? [String: Any] else {
            return .failure(.malformedJSON("the body must be a JSON object with title and body"))
        }
        let known = ArticlePayload.fieldNames(forProtocol: protocolVersion)
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            return .failure(.invalidField(FieldViolation(field: unknown, reason: "is not a field of an article")))
        }
        let content: ArticlePayload
        do {
            content = try SyncJSON.decoder().decode(ArticlePayload.self, from: data)
        } catch let error as DecodingError {
            return .failure(.invalidField(violation(error)))
        } catch {
            return .failure(.malformedJSON("\(error)"))
        }
        if let violation = content.violation() { return .failure(.invalidField(violation)) }
        return .success(content)
    }

    private static func violation(_ error: DecodingError) -> FieldViolation {
        switch error {
        case let .keyNotFound(key, context):
            return FieldViolation(field: path(context.codingPath + [key]), reason: "is required")
        case let .valueNotFound(_, context):
            return FieldViolation(field: path(context.codingPath), reason: "must not be null")
        case let .typeMismatch(type, context):
            return FieldViolation(field: path(context.codingPath), reason: "must be \(expected(type))")
        case let .dataCorrupted(context):
            let field = path(context.codingPath)
            if field == "status" {
                let names = ArticleStatus.allCases.map(\.rawValue).joined(separator: ", ")
                return FieldViolation(field: field, reason: "must be one of \(names)")
            }
            return FieldViolation(field: field.isEmpty ? "body" : field, reason: "is not valid")
        @unknown default:
            return FieldViolation(field: "body", reason: "is not valid")
        }
    }

    /// `tags[2]` for the coding path tags → index 2.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
    }

    private static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [String].Type, is [Any].Type: return "an array of strings"
        default: return "\(type)"
        }
    }
}
