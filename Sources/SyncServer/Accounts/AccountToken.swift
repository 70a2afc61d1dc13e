import Platform

/// A bearer token: shown once when an account is added, stored only as its SHA-256.
public struct AccountToken: Sendable, CustomStringConvertible {
    /// The token as the client sends it: `qtk_` and 43 base64url characters (256 random bits).
    public let text: String

    /// A new token from the system's cryptographic random source (`getrandom`).
    public static func generate() -> AccountToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return AccountToken(text: "qtk_" + base64URL(bytes))
    }

    /// A token received in an `Authorization` header.
    public init(text: String) { self.text = text }

    /// What storage keeps and looks tokens up by: the lowercase hexadecimal SHA-256 of the text.
    public var hash: String { SHA256.hex(text.utf8) }

    /// Never the token itself, so that it cannot end up in a log by accident.
    public var description: String { "AccountToken(…)" }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var text = ""
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                text.append(alphabet[Int((buffer >> UInt32(bits)) & 0x3f)])
            }
        }
        if bits > 0 { text.append(alphabet[Int((buffer << UInt32(6 - bits)) & 0x3f)]) }
        return text
    }
}
