import Foundation
import Testing

@testable import Platform

/// `String(cFormat:)`, which fills translated templates, and where the catalogues are looked for.
@Suite struct TranslationTests {
    @Test func directivesTakeTheArgumentsInOrder() {
        #expect(String(cFormat: "Could not save “%s”", "Notes") == "Could not save “Notes”")
        #expect(String(cFormat: "%d of %d", 3, 7) == "3 of 7")
        #expect(String(cFormat: "100%% of %s", "it") == "100% of it")
    }

    @Test func positionalDirectivesLetATranslationReorder() {
        #expect(String(cFormat: "%2$s, %1$s", "first", "second") == "second, first")
        #expect(String(cFormat: "%1$d von %2$d Schritten", 2, 9) == "2 von 9 Schritten")
    }

    /// An argument's own `%` is text, never a directive; an unknown or unfilled directive stays.
    @Test func argumentsAreNeverReadAsTemplates() {
        #expect(String(cFormat: "“%s” moved", "50%s off") == "“50%s off” moved")
        #expect(String(cFormat: "%s and %s", "one") == "one and %s")
        #expect(String(cFormat: "%x stays", "a") == "%x stays")
        #expect(String(cFormat: "ends with %", "a") == "ends with %")
    }

    @Test func theLocaleFolderIsTheEnvironmentsOrBesideTheProgram() {
        #expect(Translation.localeFolder(environment: ["QUIRE_LOCALE_DIR": "/tmp/locale"]).path == "/tmp/locale")
        let installed = Translation.localeFolder(environment: [:]).path
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #expect(installed == program.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale").path)
    }

    /// Without a catalogue for the language (or under the C locale) the English text comes back.
    @Test func anUntranslatedMessageIsItself() {
        #expect(gettext("Saved") == "Saved")
        #expect(gettext("x") == "x")
        #expect(ngettext("%d word", "%d words", 1) == "%d word")
        #expect(ngettext("%d word", "%d words", 2) == "%d words")
        #expect(ngettext("%d word", "%d words", 0) == "%d words")
    }
}
