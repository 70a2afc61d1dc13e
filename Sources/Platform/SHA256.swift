import CCrypto

/// SHA-256 through OpenSSL's libcrypto: schema checksums, token hashes and request fingerprints.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let message = Array(bytes)
        var digits = [CChar](repeating: 0, count: 65)
        message.withUnsafeBytes { quire_sha256_hex($0.baseAddress, $0.count, &digits) }
        return String(decoding: digits.prefix(64).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
