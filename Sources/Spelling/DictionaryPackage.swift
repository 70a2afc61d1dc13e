/// The Debian package that installs the dictionary of a language, for the writer to be told when
/// none is installed.
public enum DictionaryPackage {
    /// The package for a language tag: `hunspell-en-us` for `en_US`, `hunspell-fr` for French
    /// (Debian packages French as one dictionary for every country).
    public static func name(for language: String) -> String {
        let parts = language.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.lowercased() }
        guard let first = parts.first else { return "hunspell" }
        if ["fr", "it", "ru", "pl", "nl", "sv"].contains(first) || parts.count == 1 { return "hunspell-\(first)" }
        return "hunspell-\(first)-\(parts[1])"
    }
}
