import GtkKit
import Library
import Platform

/// Preferences › Editor: font, size, line spacing and column width of the text, the status
/// line's counts, typewriter scrolling and dimming, spell checking and the default language
/// (the installed dictionaries'), the version history's size limit, and the light or dark style. Every change is
/// written to ``EditorPreferences`` at once, and the editor follows it live.
@MainActor
final class EditorPreferencesPage {
    /// The `AdwPreferencesPage`, for a ``PreferencesWindow``.
    let page: PreferencesPage

    let fontRow: ComboRow
    let sizeSpin: SpinButton
    let spacingSpin: SpinButton
    let columnSpin: SpinButton
    let wordCountSwitch: Switch
    let readingTimeSwitch: Switch
    let typewriterSwitch: Switch
    let dimSwitch: Switch
    let spellCheckSwitch: Switch
    let languageRow: ComboRow
    /// What each row of ``languageRow`` stores in `default-language`: empty (the locale's) first,
    /// then the installed dictionaries, and the chosen one when none is installed for it.
    let languageChoices: [String]
    /// The history's limit: a percentage of the library and a number of megabytes.
    let historyPercentSpin: SpinButton
    let historyMegabytesSpin: SpinButton
    let styleRow: ComboRow
    private let preferences: EditorPreferences

    /// The page over `preferences`, showing their values now.
    init(preferences: EditorPreferences) throws {
        QuireResources.register()
        let builder = try Builder(resource: Quire.resourcePath + "preferences/editor-preferences-page.ui")
        page = try builder.object("editor_page")
        fontRow = try builder.object("font_row")
        sizeSpin = try builder.object("size_spin")
        spacingSpin = try builder.object("spacing_spin")
        columnSpin = try builder.object("column_spin")
        wordCountSwitch = try builder.object("word_count_switch")
        readingTimeSwitch = try builder.object("reading_time_switch")
        typewriterSwitch = try builder.object("typewriter_switch")
        dimSwitch = try builder.object("dim_switch")
        spellCheckSwitch = try builder.object("spell_check_switch")
        languageRow = try builder.object("language_row")
        historyPercentSpin = try builder.object("history_percent_spin")
        historyMegabytesSpin = try builder.object("history_megabytes_spin")
        styleRow = try builder.object("style_row")
        self.preferences = preferences

        let appearance = preferences.appearance
        let fonts = EditorAppearance.Font.allCases
        fontRow.setItems(fonts.map(\.label), selected: fonts.firstIndex(of: appearance.font) ?? 0)
        sizeSpin.value = Double(appearance.fontSize)
        spacingSpin.value = appearance.lineSpacing
        columnSpin.value = Double(appearance.columnWidth)
        wordCountSwitch.isActive = appearance.showsWordCount
        readingTimeSwitch.isActive = appearance.showsReadingTime
        typewriterSwitch.isActive = appearance.typewriterScrolling
        dimSwitch.isActive = appearance.dimsOtherParagraphs
        spellCheckSwitch.isActive = preferences.spellChecking
        let chosen = preferences.chosenLanguage
        var installed = BodySpelling.dictionaries.installedLanguages
        if !chosen.isEmpty && !installed.contains(chosen) { installed.insert(chosen, at: 0) }
        languageChoices = [""] + installed
        languageRow.setItems(
            [String(cFormat: gettext("Same as the System (%s)"), LanguageName.of(ArticleLanguage.preferred))] + installed.map(LanguageName.of),
            selected: languageChoices.firstIndex(of: chosen) ?? 0)
        let history = preferences.historySizeLimit
        historyPercentSpin.value = (history.fractionOfLibrary * 100).rounded()
        historyMegabytesSpin.value = Double(history.bytes / 1_000_000)
        let styles = StyleChoice.allCases
        styleRow.setItems(styles.map(\.label), selected: styles.firstIndex(of: preferences.style) ?? 0)
        connect()
    }

    private func connect() {
        fontRow.connect(.notify("selected")) { [weak self] _ in
            guard let self, EditorAppearance.Font.allCases.indices.contains(fontRow.selected) else { return }
            change { $0.font = EditorAppearance.Font.allCases[self.fontRow.selected] }
        }
        sizeSpin.connect(.valueChanged) { [weak self] in self?.change { [weak self] in $0.fontSize = Int(self?.sizeSpin.value ?? 12) } }
        spacingSpin.connect(.valueChanged) { [weak self] in
            guard let self else { return }
            // The spin shows one decimal; the key keeps exactly that.
            let value = (spacingSpin.value * 10).rounded() / 10
            change { $0.lineSpacing = value }
        }
        columnSpin.connect(.valueChanged) { [weak self] in self?.change { [weak self] in $0.columnWidth = Int(self?.columnSpin.value ?? 70) } }
        for (toggle, keyPath) in [(wordCountSwitch, \EditorAppearance.showsWordCount), (readingTimeSwitch, \.showsReadingTime),
                                  (typewriterSwitch, \.typewriterScrolling), (dimSwitch, \.dimsOtherParagraphs)] {
            toggle.connect(.notify("active")) { [weak self, weak toggle] _ in
                guard let toggle else { return }
                let isOn = toggle.isActive
                self?.change { $0[keyPath: keyPath] = isOn }
            }
        }
        spellCheckSwitch.connect(.notify("active")) { [weak self] _ in
            guard let self else { return }
            preferences.spellChecking = spellCheckSwitch.isActive
        }
        languageRow.connect(.notify("selected")) { [weak self] _ in
            guard let self, languageChoices.indices.contains(languageRow.selected) else { return }
            preferences.chosenLanguage = languageChoices[languageRow.selected]
        }
        for spin in [historyPercentSpin, historyMegabytesSpin] {
            spin.connect(.valueChanged) { [weak self] in
                guard let self else { return }
                preferences.historySizeLimit = HistorySizeLimit(
                    fractionOfLibrary: historyPercentSpin.value / 100, bytes: Int64(historyMegabytesSpin.value) * 1_000_000)
            }
        }
        styleRow.connect(.notify("selected")) { [weak self] _ in
            guard let self, StyleChoice.allCases.indices.contains(styleRow.selected) else { return }
            preferences.style = StyleChoice.allCases[styleRow.selected]
        }
    }

    private func change(_ edit: (inout EditorAppearance) -> Void) {
        var appearance = preferences.appearance
        edit(&appearance)
        preferences.appearance = appearance
    }
}
