import Library

/// The spelling preferences in GSettings: `spell-check` (on by default) and `default-language`
/// (empty: the locale's). Without an installed schema they are the defaults.
extension EditorPreferences {
    /// Whether misspelled words are underlined.
    var spellChecking: Bool {
        get { settings?.bool(forKey: "spell-check") ?? true }
        set { settings?.set(newValue, forKey: "spell-check") }
    }

    /// The language new articles get: the setting when it names one, otherwise the locale's.
    var defaultLanguage: String {
        get {
            let chosen = settings?.string(forKey: "default-language") ?? ""
            return ArticleLanguage.isValid(chosen) ? chosen : ArticleLanguage.preferred
        }
        set { settings?.set(newValue, forKey: "default-language") }
    }
}
