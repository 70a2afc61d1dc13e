import Library

/// The spelling preferences in GSettings: `spell-check` (on by default) and `default-language`
/// (empty: the locale's). Without an installed schema they live in memory for the run.
extension EditorPreferences {
    /// Whether misspelled words are underlined.
    var spellChecking: Bool {
        get { settings?.bool(forKey: "spell-check") ?? memorySpelling.checks }
        set { write { $0.set(newValue, forKey: "spell-check") } orRemember: { self.memorySpelling.checks = newValue } }
    }

    /// The language the writer chose for new articles, a dictionary tag; empty for the locale's.
    var chosenLanguage: String {
        get { settings?.string(forKey: "default-language") ?? memorySpelling.language }
        set { write { $0.set(newValue, forKey: "default-language") } orRemember: { self.memorySpelling.language = newValue } }
    }

    /// The language new articles get: the chosen one when it names one, otherwise the locale's.
    var defaultLanguage: String {
        ArticleLanguage.isValid(chosenLanguage) ? chosenLanguage : ArticleLanguage.preferred
    }
}
