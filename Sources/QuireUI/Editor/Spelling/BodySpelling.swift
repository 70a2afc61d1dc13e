import Foundation
import GtkKit
import Platform
import Spelling

/// Spell checking of the editor's body: misspelled words underlined as the writer types, and in
/// the text view's context menu up to five suggestions, "Add to Dictionary", "Ignore" and the
/// article's language.
///
/// Each edit marks the characters it touched; a moment later the paragraphs around them are
/// checked on a worker thread (``SpellChecker`` over the whole text's prose ranges, since a code
/// fence may sit far above) and only their underlines are replaced, so typing never waits for the
/// dictionary. A result for text that changed meanwhile is dropped and the check runs again.
/// The dictionary itself is opened by the first check, on that thread too: enchant loading its
/// providers and a hunspell dictionary took about 40 ms, which every start paid on the main thread
/// before its first rows when the editor opened it as it was made.
///
/// The host says which language the article is in (``language``), which words the writer added
/// to the library's personal dictionary (``personalWords``) and hears ``wordAdded`` and
/// ``languageChosen``. Ignored words belong to the article shown and are forgotten when another
/// one is loaded (``articleLoaded()``).
///
/// Actions (`editor.NAME`): `spelling-replace` (with the suggestion), `spelling-add`,
/// `spelling-ignore`, `spelling-language` (with a language tag; its state is the language).
@MainActor
final class BodySpelling {
    /// The tag that underlines misspelled words.
    static let tagName = "misspelled"
    /// The installed dictionaries, shared by every editor of the app (and its worker threads).
    nonisolated static let dictionaries = SpellingDictionaries()

    /// Whether words are checked at all (Preferences); turning it off removes every underline.
    var isEnabled = true {
        didSet { if isEnabled != oldValue { checkEverything() } }
    }
    /// The article's language (an enchant tag such as `en_US`); changing it checks the text again.
    var language = "en_US" {
        didSet {
            guard language != oldValue else { return }
            languageAction.setState(language)
            checkEverything()
        }
    }
    /// The library's personal dictionary: the words the writer added, by language.
    var personalWords: [String: Set<String>] = [:] {
        didSet {
            guard personalWords != oldValue else { return }
            // Opened again by the next check, which makes it accept them.
            opened = nil
            checkEverything()
        }
    }
    /// Called when the writer adds a word to the personal dictionary of a language.
    var wordAdded: (@MainActor (_ word: String, _ language: String) -> Void)?
    /// Called when the writer picks another language for the article in the menu.
    var languageChosen: (@MainActor (String) -> Void)?
    /// Called when the writer chooses to ignore a word in the article.
    var wordIgnored: (@MainActor (String) -> Void)?
    /// Called when a check has put its underlines on the text (tests wait for it).
    var checked: (@MainActor () -> Void)?

    /// The words the writer chose to ignore in this article.
    private(set) var ignoredWords: Set<String> = []
    /// The context menu's own items, rebuilt for the word under each right-click.
    let menu = Menu()

    private let buffer: TextBuffer
    private let view: TextView
    /// The dictionary of a language, opened with the personal words by the first check in that
    /// language since they changed; its checker is nil when no dictionary is installed for it.
    private var opened: (language: String, checker: SpellChecker?)?
    /// The checker of ``language``, once a check has opened it.
    private var checker: SpellChecker? { opened?.language == language ? opened?.checker : nil }
    /// Whether a check has opened a dictionary yet (none has before an article is loaded).
    var hasOpenedDictionary: Bool { opened != nil }
    /// The characters edited since the last check, nil when nothing waits.
    private var dirty: Range<Int>?
    /// Bumped by every edit: a check's result is only applied to the text it read.
    private var generation = 0
    private var isChecking = false
    private var pending: Timeout?
    /// The misspelled word the context menu was built for.
    private var menuWord: (range: Range<Int>, word: String)?
    private var languageAction: Action!
    /// Whether the context menu lists the languages yet: it does once a check has opened a
    /// dictionary, so that making the editor does not start enchant.
    private var menuListsLanguages = false

    /// Checks `buffer` as `view` shows it, with actions in `actions`.
    init(buffer: TextBuffer, view: TextView, actions: ActionGroup, connections: SignalConnections) {
        self.buffer = buffer
        self.view = view
        buffer.addErrorUnderlineTag(Self.tagName, color: "#e01b24")
        buffer.onInserted { [weak self] range in self?.edited(range) }.store(in: connections)
        buffer.connect(Signal<() -> Void>("changed")) { [weak self] in
            guard let self else { return }
            let cursor = self.buffer.selection.lowerBound
            self.edited(cursor..<cursor)
        }.store(in: connections)
        view.onSecondaryClick { [weak self] offset in self?.prepareMenu(at: offset) }
        view.setExtraMenu(menu)
        actions.add(Action(name: "spelling-replace", parameter: String.self) { [weak self] suggestion in
            self?.replaceMenuWord(with: suggestion)
        })
        actions.add(Action(name: "spelling-add") { [weak self] in self?.addMenuWord() })
        actions.add(Action(name: "spelling-ignore") { [weak self] in self?.ignoreMenuWord() })
        languageAction = Action(name: "spelling-language", state: language) { [weak self] chosen in
            self?.language = chosen
            self?.languageChosen?(chosen)
        }
        actions.add(languageAction)
    }

    /// Takes the words ignored in the article now shown (the library keeps them), and checks the
    /// new text whole.
    func articleLoaded(ignoring ignored: Set<String> = []) {
        ignoredWords = ignored
        checkEverything()
    }

    /// The character ranges underlined now.
    var underlinedRanges: [Range<Int>] { buffer.ranges(ofTag: Self.tagName) }

    /// Whether a check is scheduled or running.
    var isPending: Bool { dirty != nil || isChecking }

    // MARK: Checking

    private func edited(_ range: Range<Int>) {
        generation += 1
        dirty = dirty.map { min($0.lowerBound, range.lowerBound)..<max($0.upperBound, range.upperBound) } ?? range
        schedule()
    }

    private func checkEverything() {
        generation += 1
        dirty = 0..<buffer.characterCount
        schedule()
    }

    private func schedule() {
        guard !isChecking, pending?.isPending != true else { return }
        pending = Timeout(milliseconds: 30) { [weak self] in self?.checkDirty() }
    }

    private func checkDirty() {
        guard let edited = dirty else { return }
        dirty = nil
        let language = language
        let current = opened?.language == language ? opened : nil
        guard isEnabled, current.map({ $0.checker != nil }) ?? true else {
            // Off, or no dictionary is installed for the language: nothing is underlined.
            buffer.removeTag(Self.tagName, from: 0..<buffer.characterCount)
            checked?()
            return
        }
        // The text up to the end of the edited line: the check reads the lines above for the
        // blocks they open, and nothing after (in a book, the rest is a megabyte to copy); all
        // of it under a front matter, which is told from a `---` rule by its closing line.
        let count = buffer.characterCount
        let lineEnd = buffer.lineRange(buffer.line(at: min(edited.upperBound, count))).upperBound
        let text = buffer.text(in: 0..<(buffer.text(in: 0..<3) == "---" ? count : lineEnd))
        let generation = generation
        let ignored = ignoredWords
        let (checker, personal) = (current?.checker, personalWords[language] ?? [])
        isChecking = true
        // Below the main thread's priority (``TextPassWorker``): a check never takes the core
        // the writer's next keystroke waits for.
        Task { [weak self] in
            let check = await TextPassWorker.spelling.run { () -> Check in
                guard let checker = checker ?? Self.openChecker(for: language, accepting: personal) else {
                    return Check(language: language, checker: nil, found: [], paragraphs: 0..<0)
                }
                let scalars = Array(text.unicodeScalars)
                let paragraphs = Self.lines(around: edited, in: scalars)
                return Check(language: language, checker: checker, found: checker.misspellings(in: text, within: paragraphs, ignoring: ignored), paragraphs: paragraphs)
            }
            self?.apply(check, generation: generation, edited: edited)
        }
    }

    /// What a check on the worker thread found, and the checker it used.
    private struct Check: Sendable {
        var language: String
        /// Nil when no dictionary is installed for the language.
        var checker: SpellChecker?
        var found: [Misspelling]
        /// The lines checked.
        var paragraphs: Range<Int>
    }

    /// The checker of `language`, accepting the writer's `personal` words; nil without a dictionary.
    private nonisolated static func openChecker(for language: String, accepting personal: Set<String>) -> SpellChecker? {
        let checker = dictionaries.checker(for: language)
        checker?.accept(personal)
        return checker
    }

    private func apply(_ check: Check, generation: Int, edited: Range<Int>) {
        isChecking = false
        guard generation == self.generation else {
            // The text changed while it was checked, or the language or the personal words did:
            // check the same place again, with the new edits.
            dirty = dirty.map { min($0.lowerBound, edited.lowerBound)..<max($0.upperBound, edited.upperBound) } ?? edited
            schedule()
            return
        }
        opened = (check.language, check.checker)
        if !menuListsLanguages {
            menuListsLanguages = true
            prepareMenu(at: nil)
        }
        // Without a dictionary nothing is underlined.
        let checkedRange = check.checker == nil ? 0..<buffer.characterCount : check.paragraphs
        buffer.removeTag(Self.tagName, from: checkedRange)
        for misspelling in check.found { buffer.applyTag(Self.tagName, to: misspelling.range) }
        if dirty != nil { schedule() } else { checked?() }
    }

    /// The whole lines around `range` (clamped to the text).
    nonisolated static func lines(around range: Range<Int>, in scalars: [Unicode.Scalar]) -> Range<Int> {
        var start = min(range.lowerBound, scalars.count)
        while start > 0, scalars[start - 1] != "\n" { start -= 1 }
        var end = min(range.upperBound, scalars.count)
        while end < scalars.count, scalars[end] != "\n" { end += 1 }
        return start..<end
    }

    // MARK: The context menu

    /// Rebuilds the menu's items for the word at `offset` (none: only the language).
    func prepareMenu(at offset: Int?) {
        menu.removeAll()
        menuWord = nil
        if let offset, let checker,
           let range = underlinedRanges.first(where: { $0.contains(offset) || $0.upperBound == offset }) {
            let word = buffer.text(in: range)
            menuWord = (range, word)
            let suggestions = Menu()
            for suggestion in checker.suggestions(for: word, limit: 5) {
                suggestions.append(suggestion, action: "editor.spelling-replace", target: suggestion)
            }
            menu.appendSection(suggestions)
            let choices = Menu()
            choices.append(gettext("Add to Dictionary"), action: "editor.spelling-add")
            choices.append(gettext("Ignore"), action: "editor.spelling-ignore")
            menu.appendSection(choices)
        }
        menu.appendSubmenu(gettext("Language"), Self.languageMenu(current: language))
    }

    /// Every installed dictionary as a radio item; when the article's own language has none, an
    /// item that says which Debian package to install.
    static func languageMenu(current: String) -> Menu {
        let languages = Menu()
        let installed = dictionaries.installedLanguages
        if !installed.contains(current) {
            let missing = Menu()
            missing.append(
                String(cFormat: gettext("No dictionary for %1$s: install %2$s"), LanguageName.of(current), DictionaryPackage.name(for: current)),
                action: "editor.spelling-missing")
            languages.appendSection(missing)
        }
        let list = Menu()
        for tag in installed { list.append(LanguageName.of(tag), action: "editor.spelling-language", target: tag) }
        languages.appendSection(list)
        return languages
    }

    /// Replaces the word the menu was built for with `suggestion`, as one undo step.
    func replaceMenuWord(with suggestion: String) {
        guard let (range, word) = menuWord, buffer.text(in: range) == word else { return }
        buffer.replace(range, with: suggestion)
        menuWord = nil
    }

    /// Adds the menu's word to the personal dictionary of the article's language.
    func addMenuWord() {
        guard let (_, word) = menuWord else { return }
        personalWords[language, default: []].insert(word)
        wordAdded?(word, language)
    }

    /// Ignores the menu's word in this article.
    func ignoreMenuWord() {
        guard let (_, word) = menuWord else { return }
        ignoredWords.insert(word)
        wordIgnored?(word)
        checkEverything()
    }
}

/// A language tag as the writer reads it: `de_DE` is "German (Germany)".
enum LanguageName {
    static func of(_ tag: String) -> String {
        Locale(identifier: "en_US").localizedString(forIdentifier: tag) ?? tag
    }
}
