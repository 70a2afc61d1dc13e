import CEnchant
import Foundation
import Library
import Spelling

/// Spell checking with enchant and Debian's `en_US` hunspell dictionary, off the main thread as
/// the editor runs it:
/// - `spellcheck_10k_words_ms`: the misspellings of a 10,000-word Markdown article from scratch
///   (prose ranges, words, a dictionary look-up each), against `raw_enchant`: the same words,
///   already split, checked by `enchant_dict_check` alone (target: at most 100 ms);
/// - `recheck_paragraph_50k_words_ms`: what one edit costs the checker in a 50,000-word article:
///   the text's scalars, the blocks of the lines above the edited paragraph, and its prose and
///   words, against checking that paragraph's words alone with enchant;
/// - `typing_max_stall_50k_words`: the longest main-thread stall of the real `quire` (under Xvfb,
///   preview hidden) while the writer types three bursts into a 50,000-word article with spell
///   checking on, autosaves included (target: at most 16 ms), against
///   `typing_max_stall_50k_words_unchecked`, the same typing with spell checking off: what checking
///   adds is the difference. Runs alternate between the two, medians over `--repetitions` each.
///   `typing_max_main_cpu_ms_50k_words` (against `…_unchecked`): the longest main-thread CPU
///   burst of the same runs (``TypingStall``), which the machine's load does not change.
enum SpellingSuite: BenchmarkSuite {
    static let name = "spelling"
    static let summary = "spell checking an article from scratch, one edited paragraph of a long one, typing into it in the app"
    static let defaultRows = 10_000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let dictionaries = SpellingDictionaries()
        guard let checker = dictionaries.checker(for: "en_US") else {
            throw SpellingBenchmarkError.noDictionary("no en_US dictionary: install hunspell-en-us (meson-helpers/packages.sh)")
        }
        guard let broker = enchant_broker_init(), let raw = enchant_broker_request_dict(broker, "en_US") else {
            throw SpellingBenchmarkError.noDictionary("enchant could not open the en_US dictionary")
        }
        defer {
            enchant_broker_free_dict(broker, raw)
            enchant_broker_free(broker)
        }

        let article = markdownArticle(words: options.rows)
        let words = plainWords(article)
        let whole = measureMilliseconds(repetitions: options.repetitions) { _ = checker.misspellings(in: article) }
        let wholeRaw = measureMilliseconds(repetitions: options.repetitions) {
            for word in words { _ = enchant_dict_check(raw, word, -1) }
        }

        let long = markdownArticle(words: 50_000)
        let scalars = long.unicodeScalars.count
        // The paragraph in the middle of the text, as an edit there marks it.
        let middle = scalars / 2..<scalars / 2 + 1
        let paragraphWords = Array(plainWords(String(long.unicodeScalars.dropFirst(scalars / 2).prefix(600))).dropFirst().dropLast())
        let paragraph = measureMilliseconds(repetitions: options.repetitions) { _ = checker.misspellings(in: long, within: middle) }
        let paragraphRaw = measureMilliseconds(repetitions: options.repetitions) {
            for word in paragraphWords { _ = enchant_dict_check(raw, word, -1) }
        }
        let (checked, unchecked) = try await typingStalls(in: long, options)
        let medianOf = { (stalls: [TypingStall], figure: KeyPath<TypingStall, Double>) in median(stalls.map { $0[keyPath: figure] }) }
        return [
            BenchmarkResult(name: "spellcheck_10k_words_ms", unit: "ms", value: whole, baseline: "raw_enchant", baselineValue: wholeRaw),
            BenchmarkResult(
                name: "recheck_paragraph_50k_words_ms", unit: "ms", value: paragraph, baseline: "raw_enchant", baselineValue: paragraphRaw),
            BenchmarkResult(
                name: "typing_max_stall_50k_words", unit: "ms", value: medianOf(checked, \.wall),
                baseline: "typing_max_stall_50k_words_unchecked", baselineValue: medianOf(unchecked, \.wall)),
            BenchmarkResult(
                name: "typing_max_main_cpu_ms_50k_words", unit: "ms", value: medianOf(checked, \.mainCPU),
                baseline: "typing_max_main_cpu_ms_50k_words_unchecked", baselineValue: medianOf(unchecked, \.mainCPU)),
        ]
    }

    /// The longest stalls while typing into `article` in the real app, with spell checking on and
    /// off, the runs alternating.
    private static func typingStalls(
        in article: String, _ options: BenchmarkOptions
    ) async throws -> (checked: [TypingStall], unchecked: [TypingStall]) {
        let quire = try AppDriver.quireExecutable()
        let display = try DisplayServer()
        defer { display.stop() }
        var environments: [[String: String]] = []
        for checks in [true, false] {
            let folder = options.workDirectory.appendingPathComponent(checks ? "checked" : "unchecked")
            var environment = try AppDriver.sessionEnvironment(display: display.name, in: folder, showsPreview: false, checksSpelling: checks)
            environment["QUIRE_REPORT_STALLS"] = "1"
            environment["QUIRE_REPORT_FELT_SPEED"] = "1"
            environments.append(environment)
        }
        let library = try Library(url: options.workDirectory.appendingPathComponent("typing.quire"))
        defer { library.close() }
        try await library.addDemoArticles(count: 20, batchSize: 20)
        // The newest article, at the top of the list; each run's saves keep it there.
        let id = try await library.createArticle(ArticleContent(title: "A long essay", body: article, language: "en_US")).id
        var stalls: [[TypingStall]] = [[], []]
        for run in 0..<options.repetitions {
            for (index, environment) in environments.enumerated() {
                stalls[index].append(
                    try await AppStartSuite.longestStallWhileTypingInto(id, quire, library: library, run: run * 2 + index, environment: environment))
            }
        }
        return (stalls[0], stalls[1])
    }

    /// An article of about `words` words: headings, paragraphs with emphasis, links and a few
    /// misspellings, lists and code blocks.
    static func markdownArticle(words: Int) -> String {
        let sentences = [
            "The writer opens the library and reads the *notes* from the morning.",
            "A harbour at dawn is quiet, and the boats wait for the tide to turn.",
            "Somtimes a word slips through, and the checker should notice it at once.",
            "See [the guide](https://example.org/guide) for the **details** of the format.",
            "Every paragraph carries its own rhythm, which the editor keeps intact.",
        ]
        var text = ""
        var count = 0
        var section = 0
        while count < words {
            text += "## Section \(section)\n\n"
            for index in 0..<8 {
                let sentence = sentences[(section + index) % sentences.count]
                text += sentence + " "
                count += sentence.split(separator: " ").count
            }
            text += "\n\n- a list item\n- another item\n\n```\nlet code = \(section)\n```\n\n"
            count += 6
            section += 1
        }
        return text
    }

    /// The letter runs of `text`, as the raw baseline checks them.
    static func plainWords(_ text: String) -> [String] {
        text.split { !$0.isLetter && $0 != "'" }.map(String.init).filter { $0.count > 1 }
    }
}

/// Why the spelling suite cannot run here.
enum SpellingBenchmarkError: Error {
    case noDictionary(String)
}
