import GtkKit
import Library
import Platform

/// The article's side of spell checking: its language, its ignored words and the library's
/// personal dictionary go to the editor's checker; the language the writer picks and the words
/// they add or ignore come back.
extension DraftSession {
    /// Checks the article in its language, with the personal dictionary and its ignored words;
    /// saves a language the writer picks (at once: it is one choice, not typing) and keeps the
    /// words they add or ignore.
    func connectSpelling(to spelling: BodySpelling, library: Library, report: @escaping @MainActor (String, any Error) -> Void) {
        do {
            spelling.personalWords = try library.personalWordsInViewContext().mapValues(Set.init)
        } catch {
            report(gettext("The personal dictionary could not be read."), error)
        }
        spelling.language = article.language
        spelling.articleLoaded(ignoring: Set(article.ignoredWords.map(\.word)))
        spelling.languageChosen = { [weak self] language in
            guard let self, self.article.language != language else { return }
            self.article.language = language
            self.save()
        }
        let articleID = articleID
        spelling.wordIgnored = { word in
            do {
                try library.ignoreWordInViewContext(word, in: articleID)
            } catch {
                report(String(cFormat: gettext("“%s” could not be kept as ignored in this article."), word), error)
            }
        }
        spelling.wordAdded = { word, language in
            do {
                try library.addPersonalWordInViewContext(word, language: language)
            } catch {
                report(String(cFormat: gettext("“%s” could not be added to the dictionary."), word), error)
            }
        }
    }
}
