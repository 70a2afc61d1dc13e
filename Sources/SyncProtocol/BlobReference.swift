/// How an article's body refers to a blob, the one rule client and server share: the text
/// `attachment:` followed by 64 lower-case hex digits (the SHA-256 of the bytes) and `/`, anywhere
/// in the body (the Markdown reference `![photo.png](attachment:<sha256>/photo.png)` is one; so is
/// the same text in a code span, which keeps the rule free of Markdown parsing).
///
/// The server refuses an article whose body refers to a blob the account lacks
/// (``ProblemType/missingBlobs``); the client uploads exactly these blobs before the article.
///
///     BlobReference.digests(in: "![a](attachment:\(sha)/a.png)") == [sha]
public enum BlobReference {
    /// The prefix before the digest.
    public static let prefix = "attachment:"

    /// The distinct digests `body` refers to, in order of first appearance.
    public static func digests(in body: String) -> [String] {
        var found: [String] = []
        var seen = Set<String>()
        let bytes = Array(body.utf8)
        let marker = Array(prefix.utf8)
        let length = marker.count + 64 + 1
        var index = 0
        while index + length <= bytes.count {
            guard bytes[index] == marker[0], bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                index += 1
                continue
            }
            let digestStart = index + marker.count
            let digest = bytes[digestStart..<(digestStart + 64)]
            if bytes[digestStart + 64] == UInt8(ascii: "/"), digest.allSatisfy(isHexDigit) {
                let text = String(decoding: digest, as: UTF8.self)
                if seen.insert(text).inserted { found.append(text) }
                index = digestStart + 65
            } else {
                index += 1
            }
        }
        return found
    }

    /// Whether `text` is a digest as blob paths take it: 64 lower-case hex digits.
    public static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy(isHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (97...102).contains(byte)
    }
}
