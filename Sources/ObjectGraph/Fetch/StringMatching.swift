import Foundation

/// How string comparisons in predicates and sort descriptors treat case and accents.
public struct StringOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// "Draft" matches "draft" (Unicode case folding, not only ASCII).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// "café" matches "cafe".
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// The string operators of predicates.
enum StringOperator: Int32, Sendable, Hashable {
    case beginsWith = 1
    case contains = 2
    case endsWith = 3
    /// `*` matches any run of characters and `?` exactly one.
    case like = 4
}

/// String comparison shared by SQLite (registered as SQL functions) and by in-memory evaluation of
/// predicates, so a query and the pending changes it is merged with agree on every string.
///
/// Strings are folded as the options ask and then compared by their UTF-8 bytes, as SQLite does.
enum StringMatching {
    static func fold(_ text: String, _ options: StringOptions) -> String {
        if options.isEmpty { return text }
        var foldOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldOptions.insert(.diacriticInsensitive) }
        return text.folding(options: foldOptions, locale: nil)
    }

    static func matches(_ value: String, _ operation: StringOperator, _ pattern: String, _ options: StringOptions) -> Bool {
        let value = fold(value, options)
        let pattern = fold(pattern, options)
        switch operation {
        case .beginsWith: return value.utf8.starts(with: pattern.utf8)
        case .endsWith: return value.utf8.reversed().starts(with: pattern.utf8.reversed())
        case .contains: return containsBytes(Array(value.utf8), Array(pattern.utf8))
        case .like: return wildcardMatch(Array(value.unicodeScalars), Array(pattern.unicodeScalars))
        }
    }

    /// Orders two strings the way the `og_nocase` and `og_localized` collations do.
    static func compare(_ lhs: String, _ rhs: String, _ order: StringOrder) -> Int {
        switch order {
        case .binary:
            return compareBytes(lhs, rhs)
        case .caseInsensitive:
            return compareBytes(fold(lhs, .caseInsensitive), fold(rhs, .caseInsensitive))
        case .localized:
            switch lhs.localizedCompare(rhs) {
            case .orderedAscending: return -1
            case .orderedDescending: return 1
            case .orderedSame: return compareBytes(lhs, rhs)
            }
        }
    }

    static func compareBytes(_ lhs: String, _ rhs: String) -> Int {
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }

    private static func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        let first = needle[0]
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first && haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    /// Glob matching with `*` and `?` over Unicode scalars, backtracking only to the last `*`.
    private static func wildcardMatch(_ value: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var valueIndex = 0
        var patternIndex = 0
        var starIndex = -1
        var matchAfterStar = 0
        while valueIndex < value.count {
            if patternIndex < pattern.count && pattern[patternIndex] == "*" {
                starIndex = patternIndex
                matchAfterStar = valueIndex
                patternIndex += 1
            } else if patternIndex < pattern.count && (pattern[patternIndex] == "?" || pattern[patternIndex] == value[valueIndex]) {
                valueIndex += 1
                patternIndex += 1
            } else if starIndex >= 0 {
                patternIndex = starIndex + 1
                matchAfterStar += 1
                valueIndex = matchAfterStar
            } else {
                return false
            }
        }
        while patternIndex < pattern.count && pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}

/// How strings are ordered by a sort descriptor.
public enum StringOrder: Sendable, Hashable {
    /// By UTF-8 bytes (Unicode code point order), as SQLite does by default.
    case binary
    /// By case-folded text.
    case caseInsensitive
    /// In the current locale's order (`localizedCompare`).
    case localized

    /// The SQLite collation that implements this order.
    var collation: String? {
        switch self {
        case .binary: return nil
        case .caseInsensitive: return "og_nocase"
        case .localized: return "og_localized"
        }
    }
}
