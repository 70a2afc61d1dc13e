import Foundation
import Library

extension LibraryArchive {
    /// Reads an archive, checking first that it is one and that this build knows its format version.
    public static func read(from data: Data, path: String) throws(ImportError) -> LibraryArchive {
        struct Header: Decodable {
            let format: String?
            let formatVersion: Int?
        }
        let decoder = makeDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), header.format == formatName,
              let version = header.formatVersion
        else { throw .notAnArchive(path: path) }
        guard version <= currentFormatVersion else {
            throw .unsupportedArchiveVersion(path: path, found: version, newestSupported: currentFormatVersion)
        }
        do {
            return try decoder.decode(LibraryArchive.self, from: data)
        } catch let error as DecodingError {
            throw .malformedArchive(path: path, reason: Self.describe(error))
        } catch {
            throw .malformedArchive(path: path, reason: String(describing: error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        let (context, problem): (DecodingError.Context, String) = switch error {
        case .typeMismatch(let type, let context): (context, "expected \(type)")
        case .valueNotFound(let type, let context): (context, "missing \(type) value")
        case .keyNotFound(let key, let context): (context, "missing key \(key.stringValue)")
        case .dataCorrupted(let context): (context, "bad value")
        @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), "undecodable")
        }
        let location = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return "\(problem) at \(location.isEmpty ? "top level" : location): \(context.debugDescription)"
    }
}
