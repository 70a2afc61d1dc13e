import Foundation
import GtkKit
import Library
import Platform

/// The status line's counts: words, characters and reading time of the body (the reading time as
/// the library stores it, ``ReadingTime``), and the words of the selection while there is one.
extension EditorPane {
    /// The status line's word count text, as the writer reads it.
    var wordCountText: String { wordCountLabel.text }

    /// Counts after a short pause, so a burst of typing in a long article counts once.
    func scheduleWordCount() {
        wordCountUpdate?.cancel()
        wordCountUpdate = Timeout(milliseconds: 150) { [weak self] in self?.updateWordCountNow() }
    }

    /// Bodies longer than this (UTF-8 bytes) are counted off the main thread, on the
    /// ``TextPassWorker``, and by block (``BlockTally``): a book-length article (150,000 words)
    /// takes ~66 ms to read whole, and each pause of the writer's typing then reads again only
    /// the blocks that changed (and the autosave after it, none). A shorter body counts in well
    /// under a millisecond and shows its count at once.
    static let backgroundCountBytes = BlockTally.minimumBytes

    func updateWordCountNow() {
        wordCountUpdate?.cancel()
        let text = buffer.text
        let characters = buffer.characterCount
        wordCountGeneration += 1
        guard text.utf8.count > Self.backgroundCountBytes else {
            wordCount = ArticleText.wordCount(of: text)
            showCounts(characters: characters)
            return
        }
        let generation = wordCountGeneration
        wordCountsRunning += 1
        Task { [weak self] in
            let words = await TextPassWorker.wordCount.run { ArticleText.wordCount(of: text) }
            guard let self else { return }
            self.wordCountsRunning -= 1
            // The text changed (or another article was loaded) while this one was counted.
            guard generation == self.wordCountGeneration else { return }
            self.wordCount = words
            self.showCounts(characters: characters)
        }
    }

    func showCounts(characters: Int) {
        wordCountLabel.text = String(cFormat: ngettext("%s word", "%s words", wordCount), Self.number(wordCount))
        characterCountLabel.text = String(cFormat: ngettext("%s character", "%s characters", characters), Self.number(characters))
        let minutes = ReadingTime.minutes(forWords: wordCount)
        readingTimeLabel.text = minutes == 0 ? gettext("No reading time") : String(cFormat: ngettext("%s min read", "%s min read", minutes), Self.number(minutes))
        let roomy = !isStatusFolded && (paneWidth == 0 || paneWidth >= Self.fullStatusWidth)
        wordCountLabel.isVisible = appearance.showsWordCount
        characterCountLabel.isVisible = appearance.showsWordCount && roomy
        readingTimeLabel.isVisible = appearance.showsReadingTime && roomy
    }

    /// Shows the selection's words while text is selected.
    func showSelectionCount() {
        let selection = buffer.selection
        guard !selection.isEmpty else {
            selectionLabel.isVisible = false
            return
        }
        let words = ArticleText.wordCount(of: buffer.text(in: selection))
        selectionLabel.text = String(cFormat: ngettext("%s word selected", "%s words selected", words), Self.number(words))
        selectionLabel.isVisible = true
    }

    private static func number(_ value: Int) -> String {
        NumberFormatter.localizedString(from: NSNumber(value: value), number: .decimal)
    }
}
