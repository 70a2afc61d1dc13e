import Foundation
import ObjectGraph

/// The writer's personal dictionary: words the spell checker accepts, per language, kept in the
/// library (``PersonalWord``); and the words it ignores in one article (``IgnoredWord``). Neither
/// is an edit of an article: they change no article and make no outbox operation.
extension Library {
    /// The words of the personal dictionary, by language, each sorted.
    public func personalWords() async throws -> [String: [String]] {
        try await read { context in try Self.personalWords(in: context) }
    }

    /// ``personalWords()`` from the view context, for the editor.
    @MainActor
    public func personalWordsInViewContext() throws -> [String: [String]] {
        try Self.personalWords(in: container.viewContext)
    }

    /// Adds `word` to the personal dictionary of `language` (nothing when it is there already).
    public func addPersonalWord(_ word: String, language: String) async throws {
        try await write { context, _ in try Self.insertPersonalWord(word, language: language, in: context) }
    }

    /// Adds every word of `words` (by language) to the personal dictionary in one save, leaving out
    /// those it has already (an import of an archive's dictionary).
    public func addPersonalWords(_ words: [String: [String]]) async throws {
        guard words.values.contains(where: { !$0.isEmpty }) else { return }
        try await write { context, _ in
            for (language, list) in words {
                for word in list { try Self.insertPersonalWord(word, language: language, in: context) }
            }
        }
    }

    /// ``addPersonalWord(_:language:)`` in the view context, saved before it returns.
    @MainActor
    public func addPersonalWordInViewContext(_ word: String, language: String) throws {
        try writeInViewContext { context, _ in try Self.insertPersonalWord(word, language: language, in: context) }
    }

    private static func personalWords(in context: ManagedObjectContext) throws -> [String: [String]] {
        let words = try context.fetch(FetchRequest<PersonalWord>())
        return Dictionary(grouping: words, by: \.language).mapValues { $0.map(\.word).sorted() }
    }

    private static func insertPersonalWord(_ word: String, language: String, in context: ManagedObjectContext) throws {
        let existing = try context.count(for: FetchRequest<PersonalWord>(predicate: \.language == language && \.word == word))
        guard existing == 0, !word.isEmpty else { return }
        let entry = PersonalWord(context: context)
        entry.language = language
        entry.word = word
    }

    /// The words the spell checker ignores in the article, sorted.
    public func ignoredWords(in articleID: UUID) async throws -> [String] {
        try await read { context in try LibraryNames.article(articleID, in: context).ignoredWords.map(\.word).sorted() }
    }

    /// Ignores `word` in the article from now on (nothing when it is ignored already), saved in the
    /// view context before it returns, for the editor.
    @MainActor
    public func ignoreWordInViewContext(_ word: String, in articleID: UUID) throws {
        try writeInViewContext { context, _ in
            let article = try LibraryNames.article(articleID, in: context)
            guard !word.isEmpty, !article.ignoredWords.contains(where: { $0.word == word }) else { return }
            let ignored = IgnoredWord(context: context)
            ignored.word = word
            ignored.article = article
        }
    }
}
