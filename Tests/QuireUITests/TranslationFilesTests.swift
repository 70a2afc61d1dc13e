import Foundation
import QuireTestSupport
import Testing

/// The translation files and the sources they are made from: every user-visible literal is
/// marked, `po/POTFILES` names every file with marked strings, xgettext (which reads Swift as C)
/// extracts exactly the marked literals, and every `.po` is complete and passes `msgfmt --check`.
@Suite struct TranslationFilesTests {
    private static let root = BuiltProduct.packageRoot
    private static let po = root.appendingPathComponent("po")
    /// Where xgettext runs, as meson's `quire-pot` does: POTFILES names files relative to it.
    private static let sourceRoot = root.appendingPathComponent("meson-helpers")
    /// Folders whose every user-visible literal must be marked.
    private static let translatedFolders = ["Sources/QuireUI", "Sources/quire", "Sources/CommandLineArguments"]
    /// Folders whose text mostly goes to logs, JSON and error details, and which mark only what a
    /// writer reads (through `TranslatableText`): their marked literals must reach the catalogue.
    private static let partlyTranslatedFolders = ["Sources/Library", "Sources/Platform"]

    // MARK: Unmarked strings

    @Test func everyUserVisibleSwiftLiteralIsMarked() throws {
        var unmarked: [String] = []
        for file in try Self.files(extension: "swift") {
            let literals = SwiftStringLiteral.all(in: try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8))
            let found = literals.filter { !$0.isMarked && UserVisibleText.looksUserVisible($0) }
            unmarked += found.map { "\(file):\($0.line): \"\($0.text)\" is not marked (gettext/ngettext)" }
            unmarked += literals.filter { $0.isMarked && ($0.isMultilineOrRaw || $0.text.contains("{}")) }
                .map { "\(file):\($0.line): a marked literal must be a plain one-line \"…\" without interpolation" }
        }
        #expect(unmarked.isEmpty, "\(unmarked.count) problems:\n\(unmarked.joined(separator: "\n"))")
    }

    @Test func everyTextPropertyOfTheUIFilesIsTranslatable() throws {
        let textProperties = #"<(property|attribute) name="(label|title|tooltip-text|tooltip-markup|text|placeholder-text|heading|body|description|subtitle|secondary-text|accelerator-title)"([^>]*)>([^<]*)<"#
        let expression = try NSRegularExpression(pattern: textProperties)
        var untranslated: [String] = []
        for file in try Self.files(extension: "ui") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let attributes = String(text[Range(match.range(at: 3), in: text)!])
                let value = String(text[Range(match.range(at: 4), in: text)!])
                // The program's name is the same in every language.
                guard value.contains(where: \.isLetter), value != "Quire", !attributes.contains(#"translatable="yes""#) else { continue }
                untranslated.append("\(file): \"\(value)\" is not translatable=\"yes\"")
            }
        }
        #expect(untranslated.isEmpty, "\(untranslated.joined(separator: "\n"))")
    }

    // MARK: POTFILES and extraction

    @Test func potfilesNamesExactlyTheFilesWithMarkedStrings() throws {
        var withStrings: Set<String> = ["data/org.quire.Quire.desktop", "data/org.quire.Quire.metainfo.xml"]
        for file in try Self.files(extension: "swift", in: Self.translatedFolders + Self.partlyTranslatedFolders) + Self.files(extension: "ui") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            let marked = file.hasSuffix(".ui")
                ? text.contains(#"translatable="yes""#)
                : SwiftStringLiteral.all(in: text).contains(where: \.isMarked)
            if marked { withStrings.insert(file) }
        }
        let listed = Set(try Self.potfiles())
        #expect(listed.subtracting(withStrings).sorted() == [], "POTFILES names files without marked strings")
        #expect(withStrings.subtracting(listed).sorted() == [], "POTFILES misses files with marked strings")
    }

    /// xgettext guesses C for `.swift`; the marked literals are plain one-line strings (the first
    /// test keeps them so), which C reads the same. This compares what it extracts with what the
    /// Swift scanner sees, so a construct C reads otherwise cannot lose or invent a message.
    @Test func xgettextExtractsExactlyTheMarkedSwiftLiterals() throws {
        let catalogue = try Self.extract()
        var marked: Set<String> = []
        for file in try Self.potfiles() where file.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            for literal in SwiftStringLiteral.all(in: text) where literal.isMarked { marked.insert(literal.text) }
        }
        let extracted = Set(catalogue.filter { $0.references.contains { $0.hasSuffix(".swift") } }.flatMap { [$0.message] + ($0.plural.map { [$0] } ?? []) })
        #expect(extracted.subtracting(marked).sorted() == [], "xgettext extracted messages the sources do not mark")
        #expect(marked.subtracting(extracted).sorted() == [], "xgettext missed marked messages")
    }

    /// The scanner itself, on the constructs that matter: marks, plurals, interpolation, comments.
    @Test func theScannerTellsMarkedFromUnmarkedLiterals() {
        let source = #"""
            // "a comment"
            let a = gettext("Saved")
            let b = String(cFormat: ngettext("%d word", "%d words", n), n)
            let c = "Moved \(name.map { "x" } ?? "Trash") away"
            /* "block" */ let d = #"raw "quoted""#
            """#
        let literals = SwiftStringLiteral.all(in: source)
        #expect(literals.map(\.text) == ["Saved", "%d word", "%d words", "x", "Trash", "Moved {} away", #"raw "quoted""#])
        #expect(literals.map(\.isMarked) == [true, true, true, false, false, false, false])
        #expect(literals.map(\.line) == [2, 3, 3, 4, 4, 4, 5])
    }

    // MARK: The catalogues

    @Test func everyCatalogueIsCompleteAndPassesMsgfmtCheck() throws {
        let template = try Self.extractedTemplate()
        defer { try? FileManager.default.removeItem(at: template.deletingLastPathComponent()) }
        for language in try Self.languages() {
            let file = Self.po.appendingPathComponent("\(language).po").path
            _ = try Tool.run("msgfmt", ["--check", "--output-file=/dev/null", file])
            // msgcmp fails when a message of the template has no translation (missing, empty or fuzzy).
            _ = try Tool.run("msgcmp", [file, template.path])
        }
    }

    // MARK: Helpers

    /// The files under `folders` with `ext`, relative to the package root.
    private static func files(extension ext: String, in folders: [String] = translatedFolders) throws -> [String] {
        var result: [String] = []
        for folder in folders {
            let url = root.appendingPathComponent(folder)
            guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in enumerator where file.pathExtension == ext {
                result.append(folder + "/" + file.path.dropFirst(url.path.count + 1))
            }
        }
        return result.sorted()
    }

    /// POTFILES' entries, relative to the package root.
    private static func potfiles() throws -> [String] {
        try String(contentsOf: po.appendingPathComponent("POTFILES"), encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { $0.hasPrefix("../") ? String($0.dropFirst(3)) : $0 }
    }

    private static func languages() throws -> [String] {
        try String(contentsOf: po.appendingPathComponent("LINGUAS"), encoding: .utf8).split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// A template extracted as `meson compile quire-pot` does (same POTFILES, same arguments).
    private static func extractedTemplate() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-pot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("quire.pot")
        let arguments = try String(contentsOf: po.appendingPathComponent("xgettext-args"), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        _ = try Tool.run("xgettext", [
            "--package-name=quire", "-f", po.appendingPathComponent("POTFILES").path, "-D", sourceRoot.path, "-k_",
            "-o", output.path, "--no-wrap",
        ] + arguments)
        return output
    }

    /// The messages of the extracted template.
    private static func extract() throws -> [CatalogueEntry] {
        let template = try extractedTemplate()
        defer { try? FileManager.default.removeItem(at: template.deletingLastPathComponent()) }
        return CatalogueEntry.all(in: try String(contentsOf: template, encoding: .utf8))
    }
}

/// One message of a `.pot` written with `--no-wrap` (which still breaks a message after each
/// `\n`, continuing it on lines of their own): where it comes from and its text.
private struct CatalogueEntry {
    var references: [String] = []
    var message = ""
    var plural: String?
    /// ``message`` as an optional, so that a key path can name either field.
    private var messageField: String? {
        get { message }
        set { message = newValue ?? "" }
    }

    static func all(in text: String) -> [CatalogueEntry] {
        var entries: [CatalogueEntry] = []
        var current = CatalogueEntry()
        // Which field a continuation line adds to.
        var continuing: WritableKeyPath<CatalogueEntry, String?>?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#: ") {
                current.references += line.dropFirst(3).split(separator: " ").map { String($0.split(separator: ":").first ?? "") }
            } else if line.hasPrefix("msgid \"") {
                current.message = unquote(line.dropFirst(6))
                continuing = \.messageField
            } else if line.hasPrefix("msgid_plural \"") {
                current.plural = unquote(line.dropFirst(13))
                continuing = \.plural
            } else if line.hasPrefix("msgstr") {
                continuing = nil
            } else if line.hasPrefix("\""), let field = continuing {
                current[keyPath: field]? += unquote(line[...])
            } else if line.isEmpty {
                if !current.message.isEmpty { entries.append(current) }
                current = CatalogueEntry()
            }
        }
        if !current.message.isEmpty { entries.append(current) }
        return entries
    }

    /// A C string literal's text.
    private static func unquote(_ quoted: Substring) -> String {
        var result = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": result += "\n"
                case "t": result += "\t"
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Which literals a writer could read: words of a sentence, a title, a mnemonic label. What is not
/// (key names, CSS, identifiers, messages for the program's log) is excluded by the line it is on.
enum UserVisibleText {
    static func looksUserVisible(_ literal: SwiftStringLiteral) -> Bool {
        let text = literal.text.replacingOccurrences(of: "{}", with: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        let words = text.split(whereSeparator: { !$0.isLetter && $0 != "’" && $0 != "'" }).filter { $0.count >= 2 }
        let sentence = words.count >= 2 && text.contains(" ")
        let titleWord = words.count == 1 && (text.first?.isUppercase ?? false) && text.dropFirst().contains(where: \.isLowercase)
        let mnemonic = text.hasPrefix("_") && text.dropFirst().first?.isUppercase == true
        guard sentence || titleWord || mnemonic else { return false }
        return !notShown.contains { literal.sourceLine.range(of: $0, options: .regularExpression) != nil }
    }

    /// Lines whose literals never reach a writer's eyes.
    static let notShown = [
        #"fatalError\(|precondition\(|preconditionFailure\(|assert\(|assertionFailure\("#,  // program errors
        #"FileHandle\.standard(Error|Output)"#,  // the log on standard error, benchmark reports
        #"GLibError\.(check|catching)\("#,  // what a GLib call was doing, for the error's details
        #"key\.name|case "(Return|Tab|BackSpace|KP_Enter|ISO_Left_Tab)""#,  // GDK key names
        #"rgba\(|"Adwaita(-dark)?"|serif|sans-serif|monospace""#,  // colours, style schemes, font families
        #"entityName ==|draft\.name ="#,  // schema and context names
        #"quire\.(setStyle|update|scrollToLine)|about:blank|static let source = #""""#,  // the preview's script and page
        #"accelerators: \[|DragContentType\(named:"#,  // key names, drag content types
        #"load\(css:|\{ (font-family|background-color):"#,  // CSS built at run time
        #"printError\(|fail\("cannot "#,  // the log on standard error
        #"let sample = "#,  // text that measures a font, never shown
        #"static let name = "Quire""#,  // the program's name is the same in every language
        #"static let usage = |^\s*\+ "\| show|^\s*"  quire "#,  // command-line syntax: options and verbs are the same in every language
        #"integrity = \["#,  // `quire check --json`: JSON is never translated
        #"let markup = """"#,  // the preview's SVG placeholder around a translated sentence
        #"log\("main-cpu-burst "#,  // the stall monitor's diagnostic lines in QUIRE_BURSTS_FILE
    ]
}
