import Foundation

/// The media type of an attachment, told by its first bytes (a file's name can lie; its bytes
/// decide how it is shown): the images the preview and the exports draw (PNG, JPEG, GIF, WebP,
/// SVG), and everything else, which an article links to instead.
public enum AttachmentMediaType {
    public static let png = "image/png"
    public static let jpeg = "image/jpeg"
    public static let gif = "image/gif"
    public static let webP = "image/webp"
    public static let svg = "image/svg+xml"
    /// Any other file.
    public static let other = "application/octet-stream"

    /// The media types shown as images.
    public static let images: Set<String> = [png, jpeg, gif, webP, svg]

    /// The file-name endings of ``images``, for where a name is all there is (a file chooser's
    /// filter, a reference whose bytes are not here yet). Once the bytes are here, ``of(_:)``
    /// decides: a download is sniffed when it is stored, as a pasted file is.
    public static let imageEndings = ["png", "jpg", "jpeg", "gif", "webp", "svg"]

    /// Whether `fileName` ends as an image does (``imageEndings``, any case).
    public static func namesImage(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: ".") else { return false }
        return imageEndings.contains(fileName[fileName.index(after: dot)...].lowercased())
    }

    /// The media type of `data`.
    public static func of(_ data: Data) -> String {
        let bytes = [UInt8](data.prefix(512))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png }
        if starts([0xFF, 0xD8, 0xFF]) { return jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return webP }
        if isSVG(bytes) { return svg }
        return other
    }

    /// Whether the text starts, after an optional byte-order mark, XML declaration, comments and
    /// doctype, with an `<svg` element.
    private static func isSVG(_ bytes: [UInt8]) -> Bool {
        guard var text = String(bytes: bytes, encoding: .utf8) ?? String(bytes: bytes.dropLast(3), encoding: .utf8) else { return false }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<svg") { return true }
            guard rest.hasPrefix("<?") || rest.hasPrefix("<!"), let end = rest.firstIndex(of: ">") else { return false }
            rest = rest[rest.index(after: end)...]
        }
    }
}

/// How an article's Markdown refers to an attachment: `attachment:<sha256>/<file name>`, the name
/// percent-encoded. The digest makes it stable (the same bytes, the same reference, in every
/// library and after a sync) and lets an export or import rewrite it to a relative path and back;
/// the name keeps the Markdown readable and gives exported files their names.
///
///     ![Diagram](attachment:9f86d0…0a08/diagram.png)
public struct AttachmentReference: Sendable, Hashable {
    /// The URI scheme.
    public static let scheme = "attachment"

    public var sha256: String
    public var fileName: String

    public init(sha256: String, fileName: String) {
        self.sha256 = sha256
        self.fileName = fileName
    }

    /// The reference in `uri`, or nil when it is not an attachment reference.
    public init?(uri: String) {
        guard uri.hasPrefix(Self.scheme + ":") else { return nil }
        let path = uri.dropFirst(Self.scheme.count + 1)
        guard let slash = path.firstIndex(of: "/") else { return nil }
        let digest = path[..<slash]
        guard digest.utf8.count == 64, digest.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }),
              let name = String(path[path.index(after: slash)...]).removingPercentEncoding, !name.isEmpty else { return nil }
        self.init(sha256: String(digest), fileName: name)
    }

    /// The URI.
    public var uri: String {
        Self.scheme + ":" + sha256 + "/" + (fileName.addingPercentEncoding(withAllowedCharacters: Self.nameCharacters) ?? fileName)
    }

    /// The Markdown that shows it: an image for the media types drawn as images, a link otherwise.
    public func markdown(mediaType: String) -> String {
        let label = fileName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]")
        return (AttachmentMediaType.images.contains(mediaType) ? "!" : "") + "[\(label)](\(uri))"
    }

    /// Unreserved characters only: spaces, parentheses and brackets are encoded, so the reference
    /// never ends a Markdown link early.
    private static let nameCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// Every reference in `text` (Markdown, or HTML rendered from it) with where it stands, in
    /// order: the one reading of references, which ``all(in:)``, the editor's marking and the
    /// exports' rewriting go through.
    ///
    /// The scheme is looked for in the text's UTF-8 bytes: an ASCII byte never occurs inside a
    /// longer character's encoding, so a match always starts a character. (Foundation's
    /// `range(of:)` turned the rest of the text into UTF-16 for each search: a tenth of the
    /// processor samples of a JSON export, for every article of every export and sync.)
    public static func occurrences(in text: String) -> [(range: Range<String.Index>, reference: AttachmentReference)] {
        var found: [(Range<String.Index>, AttachmentReference)] = []
        let utf8 = text.utf8
        var searchFrom = 0
        while let match = firstOffset(of: schemePrefix, in: utf8, from: searchFrom) {
            let start = utf8.index(utf8.startIndex, offsetBy: match)
            let tail = text[start...]
            let end = tail.firstIndex { $0 == ")" || $0 == " " || $0 == "\n" || $0 == ">" || $0 == "\"" || $0 == "'" } ?? tail.endIndex
            if let reference = AttachmentReference(uri: String(text[start..<end])) {
                found.append((start..<end, reference))
                searchFrom = utf8.distance(from: utf8.startIndex, to: end)
            } else {
                searchFrom = match + schemePrefix.count
            }
        }
        return found
    }

    /// The bytes every reference starts with: the scheme and its colon.
    private static let schemePrefix = Array((scheme + ":").utf8)

    /// Where `pattern` first occurs in `utf8` at or after byte `start`, as a byte offset.
    private static func firstOffset(of pattern: [UInt8], in utf8: String.UTF8View, from start: Int) -> Int? {
        let search = { (bytes: UnsafeBufferPointer<UInt8>) -> Int? in
            guard let base = bytes.baseAddress, start + pattern.count <= bytes.count else { return nil }
            var position = start
            let last = bytes.count - pattern.count
            while position <= last {
                guard let hit = memchr(base + position, Int32(pattern[0]), last - position + 1) else { return nil }
                position = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
                if pattern.withUnsafeBytes({ memcmp(base + position, $0.baseAddress!, pattern.count) }) == 0 { return position }
                position += 1
            }
            return nil
        }
        if let result = utf8.withContiguousStorageIfAvailable(search) { return result }
        // A string without contiguous UTF-8 of its own (bridged) is read from a copy.
        return Array(utf8).withUnsafeBufferPointer(search)
    }

    /// The references in a Markdown text, in order of appearance (each once): what
    /// ``occurrences(in:)`` finds.
    public static func all(in markdown: String) -> [AttachmentReference] {
        var seen = Set<AttachmentReference>()
        return occurrences(in: markdown).map(\.reference).filter { seen.insert($0).inserted }
    }
}
