import Foundation

/// An article's language, as the tag of a spelling dictionary: `en_US`, `de_DE`, `fr`.
///
/// Every article has one (schema V4); the spell checker reads it, export writes it (front matter
/// `lang`, HTML `lang` as `en-US`, PDF metadata) and sync carries it.
public enum ArticleLanguage {
    /// The language new articles get when nothing else says: the one of the writer's locale
    /// (`LC_ALL`, `LC_MESSAGES`, `LANG`), `en_US` for the C locale.
    public static var preferred: String {
        // Three variables read with getenv, not `ProcessInfo.environment` (a copy of the whole
        // environment): every inserted article asks, a first sync thousands of times.
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return tag(fromLocale: value) }
        }
        return fallback
    }

    /// The language of a locale that names none (`C`, `POSIX`).
    public static let fallback = "en_US"

    /// The dictionary tag of a POSIX locale name: `de_DE.UTF-8@euro` is `de_DE`; `C` and `POSIX`
    /// are ``fallback``.
    public static func tag(fromLocale locale: String) -> String {
        let name = String(locale.prefix { $0 != "." && $0 != "@" })
        return name.isEmpty || name == "C" || name == "POSIX" || !isValid(name) ? fallback : name
    }

    /// Whether `tag` can be a language tag: 2 to 35 ASCII letters, digits, `_` and `-`, starting
    /// with a letter.
    public static func isValid(_ tag: String) -> Bool {
        (2...35).contains(tag.count) && tag.first!.isLetter
            && tag.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }

    /// The tag as HTML and PDF write languages (BCP 47): `en_US` is `en-US`.
    public static func bcp47(_ tag: String) -> String {
        tag.replacingOccurrences(of: "_", with: "-")
    }

    /// A BCP 47 tag (`en-US`, as front matter `lang` may say) as a dictionary tag (`en_US`).
    public static func tag(fromBCP47 code: String) -> String {
        code.replacingOccurrences(of: "-", with: "_")
    }
}
