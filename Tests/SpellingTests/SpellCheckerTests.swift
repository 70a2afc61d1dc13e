import Foundation
import Spelling
import Testing

/// The checker against real enchant and Debian's hunspell dictionaries (en_US, de_DE, fr from
/// `meson-helpers/packages.sh`).
@Suite struct SpellCheckerTests {
    let dictionaries = SpellingDictionaries()

    @Test func theInstalledDictionariesIncludeEnglishGermanAndFrench() {
        let installed = dictionaries.installedLanguages
        #expect(installed.contains("en_US") && installed.contains("en_GB") && installed.contains("de_DE"))
        #expect(installed.contains { $0.hasPrefix("fr") })
        #expect(installed == installed.sorted())
    }

    @Test func flagsTheMisspelledWordsOfAnEnglishParagraph() throws {
        let checker = try #require(dictionaries.checker(for: "en_US"))
        let text = "# A heading with a mispeled word\n\nThe writer's *recieve* and [teh link](https://exmaple.org/tpyo) don't stall.\n"
        let flagged = checker.misspellings(in: text)
        #expect(flagged.map(\.word) == ["mispeled", "recieve", "teh"])
        for misspelling in flagged {
            #expect(substring(text, misspelling.range) == misspelling.word)
        }
    }

    /// An attachment reference's file name ("png", "txt") is not checked; words around it are.
    @Test func anAttachmentsFileNameIsNotFlagged() throws {
        let checker = try #require(dictionaries.checker(for: "en_US"))
        let digest = String(repeating: "7f", count: 32)
        let text = "The gul ![gull.png](attachment:\(digest)/gull.png) and [notes.txt](attachment:\(digest)/notes.txt) teh end.\n"
        #expect(checker.misspellings(in: text).map(\.word) == ["gul", "teh"])
        #expect(checker.misspellings(in: "[gull.png](https://example.org/photo)").map(\.word) == ["png"])
    }

    @Test func flagsTheMisspelledWordsOfAGermanParagraph() throws {
        let checker = try #require(dictionaries.checker(for: "de_DE"))
        let text = "Die Straße führt über die Brücke zum Bahnhoff, wo Müller auf den Zugg wartet."
        #expect(checker.misspellings(in: text).map(\.word) == ["Bahnhoff", "Zugg"])
        let english = try #require(dictionaries.checker(for: "en_US"))
        #expect(english.misspellings(in: text).map(\.word).contains("Straße"), "the same text is wrong in English")
    }

    @Test func suggestsAtMostFiveCorrections() throws {
        let checker = try #require(dictionaries.checker(for: "en_US"))
        let suggestions = checker.suggestions(for: "recieve")
        #expect(suggestions.first == "receive")
        #expect(suggestions.count <= 5)
        #expect(checker.suggestions(for: "abcdefghijklm", limit: 2).count <= 2)
    }

    @Test func acceptedAndIgnoredWordsAreNotFlagged() throws {
        let checker = try #require(dictionaries.checker(for: "en_GB"))
        let text = "Quirelike prose with a zorbleflux."
        #expect(checker.misspellings(in: text).map(\.word) == ["Quirelike", "zorbleflux"])
        #expect(checker.misspellings(in: text, ignoring: ["zorbleflux"]).map(\.word) == ["Quirelike"])
        checker.accept(["Quirelike"])
        #expect(dictionaries.checker(for: "en_GB")?.misspellings(in: text).map(\.word) == ["zorbleflux"])
    }

    @Test func checksOnlyTheWordsOfTheGivenRange() throws {
        let checker = try #require(dictionaries.checker(for: "en_US"))
        let text = "Frist paragraph.\n\nSecnod paragraph.\n"
        let second = text.unicodeScalars.count - 18..<text.unicodeScalars.count
        #expect(checker.misspellings(in: text, within: second).map(\.word) == ["Secnod"])
    }

    @Test func noDictionaryMeansNoCheckerAndNamesThePackage() {
        #expect(dictionaries.checker(for: "xx_YY") == nil)
        #expect(!dictionaries.hasDictionary(for: "xx_YY"))
        #expect(DictionaryPackage.name(for: "en_US") == "hunspell-en-us")
        #expect(DictionaryPackage.name(for: "de_DE") == "hunspell-de-de")
        #expect(DictionaryPackage.name(for: "fr_FR") == "hunspell-fr")
    }

    private func substring(_ text: String, _ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: Array(text.unicodeScalars)[range])
        return String(view)
    }
}
