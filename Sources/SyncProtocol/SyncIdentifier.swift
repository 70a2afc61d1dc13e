/// The shape of the identifiers a client chooses: article IDs and idempotency keys.
///
/// Both appear in paths, so they are limited to URL-unreserved characters and need no escaping.
/// A lowercase or uppercase UUID string is valid.
public enum SyncIdentifier {
    /// The longest identifier accepted, in characters.
    public static let maximumLength = 128

    /// Whether `text` is 1 to 128 characters from `A-Z a-z 0-9 - . _ ~`, and not `.` or `..`
    /// (which mean "this" and "the parent" in a path).
    public static func isValid(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength, text != ".", text != ".." else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                return true
            default:
                return false
            }
        }
    }
}
