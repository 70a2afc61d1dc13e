import Foundation
import QuireTestSupport
import Testing

/// `quire` in another language and locale, end to end: the catalogues compiled as `run.sh` does, a
/// German locale compiled with `localedef` into a folder of its own (`LOCPATH`; the machine needs
/// none installed), and the built `quire` run under `LANGUAGE=de LC_ALL=de_DE.UTF-8`. People read
/// German words, German digit grouping and German dates; `--json` and the words the options take
/// stay the same in every language.
@Suite(.serialized) struct TranslatedVerbTests {
    private let verbs = VerbTests()

    /// The environment of a German reader, with the catalogues and locale it needs.
    private static func german(in folder: TemporaryFolder) throws -> [String: String] {
        let catalogues = folder.appending("catalogues")
        _ = try Tool.run(BuiltProduct.packageRoot.appendingPathComponent("meson-helpers/compile-translations.sh").path, [catalogues.path])
        let locales = folder.appending("locales")
        try FileManager.default.createDirectory(at: locales, withIntermediateDirectories: true)
        _ = try Tool.run("localedef", ["-i", "de_DE", "-f", "UTF-8", locales.appendingPathComponent("de_DE.UTF-8").path])
        return ["QUIRE_LOCALE_DIR": catalogues.path, "LOCPATH": locales.path, "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"]
    }

    @Test func peopleReadTheirLanguageAndLocaleWhileJSONStaysTheSame() throws {
        let folder = try TemporaryFolder()
        let german = try Self.german(in: folder)
        let url = folder.appending("library.quire")

        // A count past a thousand, grouped as German groups it.
        let demo = try verbs.quire(["demo", "--articles", "1200", "--seed", "7"], library: url, environment: german)
        #expect(demo.status == 0, "\(demo.error)")
        #expect(demo.output.contains("1.200"), "\(demo.output)")
        #expect(!demo.output.contains("1200"), "\(demo.output)")

        // The status words and the dates of `list` are German; the words `--status` takes are not.
        let listed = try verbs.quire(["list", "--status", "draft"], library: url, environment: german)
        #expect(listed.status == 0, "\(listed.error)")
        let firstRow = try #require(listed.output.split(separator: "\n").first.map(String.init))
        #expect(firstRow.contains("Entwurf"), "\(firstRow)")
        #expect(firstRow.range(of: #"  \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d  "#, options: .regularExpression) != nil, "a German date: \(firstRow)")

        // --json is the same as an English reader's: raw status, ISO 8601 dates.
        let json = try verbs.quire(["list", "--status", "draft", "--json"], library: url, environment: german)
        let english = try verbs.quire(["list", "--status", "draft", "--json"], library: url)
        #expect(json.status == 0 && json.output == english.output)
        let first = try #require((try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])?.first)
        #expect(first["status"] as? String == "draft")
        #expect((first["updated"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT"#, options: .regularExpression) != nil)

        // A mistake on the command line, and the help of a verb, in German.
        let id = String(firstRow.prefix(36))
        let wrong = try verbs.quire(["status", id, "done"], library: url, environment: german)
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("ist nicht draft, ready oder published"), "\(wrong.error)")
        let help = try verbs.quire(["help", "list"], environment: german)
        #expect(help.output.contains("--json gibt"), "\(help.output)")
    }

    /// Library's sentences (a problem with the library) reach the reader translated.
    @Test func aProblemWithTheLibraryIsExplainedInTheReadersLanguage() throws {
        let folder = try TemporaryFolder()
        let german = try Self.german(in: folder)
        let missing = folder.appending("nowhere/library.quire")
        let run = try verbs.quire(["check"], library: missing, environment: german)
        let english = try verbs.quire(["check"], library: missing)
        #expect(english.output.contains("There is no Quire library at") || english.error.contains("There is no Quire library at"), "\(english)")
        #expect((run.output + run.error).contains("gibt es keine Quire-Bibliothek"), "\(run)")
        #expect(!(run.output + run.error).contains("There is no Quire library"), "\(run)")
    }

    /// Library's errors (``LibraryError``) reach a German reader in German, as a failure (no such
    /// folder, no such article) and with a verb's own exit status (75: the article changed since it
    /// was read); an English reader's stay as they were.
    @Test func libraryErrorsAreSaidInTheReadersLanguage() throws {
        let folder = try TemporaryFolder()
        let german = try Self.german(in: folder)
        let url = folder.appending("library.quire")
        let demo = try verbs.quire(["demo", "--articles", "3", "--seed", "3"], library: url)
        #expect(demo.status == 0, "\(demo.error)")

        let missing = try verbs.quire(["list", "--folder", "Nowhere"], library: url, environment: german)
        #expect(missing.status == 1)
        #expect(missing.error == "quire list: es gibt keinen Ordner namens „Nowhere“\n", "\(missing.error)")
        #expect(try verbs.quire(["list", "--folder", "Nowhere"], library: url).error == "quire list: there is no folder named 'Nowhere'\n")

        let unknown = try verbs.quire(["show", "ffffffff"], library: url, environment: german)
        #expect(unknown.status == 1)
        #expect(unknown.error == "quire show: keine Artikel-ID beginnt mit „ffffffff“\n", "\(unknown.error)")

        let id = try #require(try verbs.quire(["list"], library: url).output.split(separator: "\n").first.map { String($0.prefix(36)) })
        let changed = try verbs.quire(["edit", id, "--title", "Neu", "--if-revision", "0"], library: url, environment: german)
        #expect(changed.status == 75)
        #expect(changed.error.hasPrefix("quire edit: Artikel \(id) ist jetzt bei Revision "), "\(changed.error)")
        #expect(changed.error.hasSuffix(", nicht 0: er wurde geändert, seit er gelesen wurde\n"), "\(changed.error)")
    }
}
