import Foundation
import Testing

@testable import Platform

/// Sentences written once for layers below the UI: their English (what `--json` carries), the
/// values filled in, plurals, nested phrases and sentences joined. The tests run under the C
/// locale, where nothing is translated: `translated` must then be the English too.
@Suite struct TranslatableTextTests {
    @Test func valuesFillTheTemplateAndANestedPhraseGoesWithIt() {
        let kind = TranslatableText("edited on both sides")
        let text = TranslatableText("“%1$s” was %2$s (revision %3$d).", "Notes", kind, 12_345)
        #expect(text.english == "“Notes” was edited on both sides (revision 12345).")
        #expect("\(text)" == text.english, "interpolation and logs get the English")
        #expect(text.translated == text.english, "the C locale translates nothing and groups no digits")
    }

    @Test func countedChoosesTheEnglishFormWithoutACatalogue() {
        #expect(TranslatableText.counted("%d conflict", "%d conflicts", 1, 1).english == "1 conflict")
        #expect(TranslatableText.counted("%d conflict", "%d conflicts", 0, 0).english == "0 conflicts")
        #expect(TranslatableText.counted("%d conflict", "%d conflicts", 3, 3).translated == "3 conflicts")
    }

    @Test func sentencesAreJoinedWithASpace() {
        let text = TranslatableText(sentences: [TranslatableText("Took the server's version of “%s”.", "Plan"), TranslatableText("Nothing else changed.")])
        #expect(text.english == "Took the server's version of “Plan”. Nothing else changed.")
        #expect(TranslatableText(sentences: []).english == "")
    }

    /// Grouped by the process's LC_NUMERIC: none under the C locale (the tests' own), the
    /// locale's separator every three digits otherwise (`TranslatedVerbTests` runs `quire` under
    /// German). `--json`'s English never groups.
    @Test func numbersAreWrittenAsTheLocaleGroupsThem() {
        let separator = localeconv().pointee.thousands_sep.map { String(cString: $0) } ?? ""
        let grouping = localeconv().pointee.grouping.map { $0.pointee } ?? 0
        let expected = separator.isEmpty || grouping <= 0 ? "1234567" : "1\(separator)234\(separator)567"
        #expect(numberText(1_234_567) == expected)
        #expect(numberText(-42) == "-42")
        #expect(String(cFormat: "%s and %d", 12_345, 7) == "12345 and 7", "only %d takes a number")
        #expect(TranslatableText("%d words", 12_345).english == "12345 words")
    }
}
