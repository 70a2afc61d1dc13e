import Foundation

/// The JSON coding both sides use: ISO 8601 dates, sorted keys.
///
/// Sorted keys make an encoded answer a stable byte string, which the server stores for replays.
public enum SyncJSON {
    /// An encoder for request and answer bodies.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A decoder for request and answer bodies.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
