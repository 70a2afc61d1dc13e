import Foundation
import Library

/// Turns an article title into a file name that is safe on any file system a writer may export to.
///
/// The rules, in order:
/// - Unicode is normalised to NFC, so one title always gives one byte sequence.
/// - Control characters (C0, DEL, C1) and line or paragraph separators become spaces; invisible
///   bidirectional controls and the byte order mark are removed, so a name cannot display reversed.
/// - Path separators and the characters Windows and FAT forbid become `-` (`/`, `\`, `:`, `|`) or
///   are dropped (`* ? " < >`), so a title can never name another folder (`../../etc/x` gives `etc-x`).
/// - Runs of white space collapse to one space; leading dots, dashes and spaces are removed (no
///   hidden files, no `.` or `..`, nothing a shell takes for an option), and so are leading combining
///   marks and trailing dots and spaces (which Windows strips).
/// - The stem is cut to ``maximumStemBytes`` bytes of UTF-8, at a character boundary, leaving room
///   in the 255-byte limit of common file systems for a uniqueness suffix and an extension.
/// - Windows' reserved device names (`CON`, `NUL`, `COM1`, …) get a trailing `_`.
/// - What remains empty becomes "Untitled".
enum FileName {
    /// The longest stem, in UTF-8 bytes.
    static let maximumStemBytes = 200
    /// The stem used when a title leaves nothing usable.
    static let fallbackStem = "Untitled"

    private static let reservedNames: Set<String> = {
        var names: Set<String> = ["CON", "PRN", "AUX", "NUL"]
        for number in 1...9 {
            names.insert("COM\(number)")
            names.insert("LPT\(number)")
        }
        return names
    }()

    /// A safe file name stem (no extension) for `title`.
    static func stem(for title: String) -> String {
        var cleaned = ""
        var pendingSpace = false
        for scalar in title.precomposedStringWithCanonicalMapping.unicodeScalars {
            let replacement: Unicode.Scalar?
            switch scalar.value {
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                continue
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                replacement = " "
            default:
                switch scalar {
                case "/", "\\", ":", "|": replacement = "-"
                case "*", "?", "\"", "<", ">": continue
                default: replacement = scalar.properties.isWhitespace ? " " : scalar
                }
            }
            guard let replacement else { continue }
            if replacement == " " {
                pendingSpace = !cleaned.isEmpty
            } else {
                if pendingSpace { cleaned += " " }
                pendingSpace = false
                cleaned.unicodeScalars.append(replacement)
            }
        }
        // Leading dots, dashes, spaces, and combining marks that would attach to nothing (or to the
        // path separator before the name).
        var stem = Substring(cleaned.unicodeScalars.drop {
            $0 == "." || $0 == "-" || $0 == " " || [.nonspacingMark, .enclosingMark, .spacingMark].contains($0.properties.generalCategory)
        })
        stem = truncated(stem, toBytes: maximumStemBytes)
        while let last = stem.last, last == "." || last == " " { stem.removeLast() }
        guard !stem.isEmpty else { return fallbackStem }
        if reservedNames.contains(stem.uppercased()) { return stem + "_" }
        return String(stem)
    }

    /// The longest prefix of `text` that fits in `limit` UTF-8 bytes and ends on a character boundary.
    static func truncated(_ text: Substring, toBytes limit: Int) -> Substring {
        guard text.utf8.count > limit else { return text }
        var end = text.startIndex
        var bytes = 0
        for index in text.indices {
            let next = text.index(after: index)
            bytes += text.utf8.distance(from: index, to: next)
            guard bytes <= limit else { break }
            end = next
        }
        return text[..<end]
    }
}
