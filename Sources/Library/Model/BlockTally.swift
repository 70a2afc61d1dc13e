import Foundation
import Synchronization

/// The excerpt and word count of a text that changes a little at a time, kept by block: what
/// the editor's status line shows after each pause in the writer's typing and what the autosave
/// stores, without reading a book-length article whole through cmark each time (150,000 words
/// take ~66 ms of CPU to parse; a changed paragraph, well under one).
///
/// The text is cut into runs of blocks at the places where cmark's parse of the whole text cannot
/// join what comes before with what comes after (``runs(of:)``); each run is read on its own
/// (``BlockSummary``) and what it gave is kept for as long as the text holds that run, so the
/// next ``summary(of:)`` reads through cmark only the runs an edit changed. The result equals
/// reading the whole text through cmark at once: that stays the one definition of a word.
///
/// ```swift
/// let tally = BlockTally()
/// let first = tally.summary(of: body)          // every run read
/// let again = tally.summary(of: editedBody)    // only the edited runs read again
/// ```
///
/// A tally keeps the runs of the text it read last (an editor's text as it changes); reading
/// another text works, but reads it whole. It may be used from any thread.
public final class BlockTally: Sendable {
    /// The tally ``ArticleText`` reads long bodies with: the editor counts the text it shows
    /// after each pause, and the autosave that follows finds every block of that text read.
    public static let shared = BlockTally()
    /// Bodies shorter than this (UTF-8 bytes) are read whole: under a millisecond.
    public static let minimumBytes = 32_768

    /// What the tally knows of the text it read last.
    private struct State {
        /// What each run gave, by the run's bytes.
        var runs: [Run: BlockSummary] = [:]
        /// The text and its summary: the autosave (and the version it records) summarises the
        /// very text the editor counted a moment before, which a byte comparison finds in well
        /// under a millisecond, without cutting it into runs again.
        var last: (text: String, summary: (excerpt: String, wordCount: Int))?
    }

    private let state = Mutex(State())

    /// An empty tally: the first summary reads every run.
    public init() {}

    /// The excerpt and word count of `text`, as reading it whole through cmark gives them,
    /// reading again only the runs of blocks that were not in the text read last.
    public func summary(of text: String) -> (excerpt: String, wordCount: Int) {
        let (known, last) = state.withLock { ($0.runs, $0.last) }
        if let last, Self.sameBytes(last.text, text) { return last.summary }
        var kept: [Run: BlockSummary] = [:]
        var parts = ExcerptParts()
        var words = 0
        for run in Self.runs(of: text) {
            let key = Run(text: run)
            let summary = kept[key] ?? known[key] ?? BlockSummary(reading: String(run))
            kept[key] = summary
            words += summary.wordCount
            if !parts.isFull { parts = summary.adding(to: parts) }
        }
        let summary = parts.result(words: words)
        state.withLock { $0 = State(runs: kept, last: (text, summary)) }
        return summary
    }

    private static func sameBytes(_ left: String, _ right: String) -> Bool {
        guard left.utf8.count == right.utf8.count else { return false }
        var (left, right) = (left, right)
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.count == 0 || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0
            }
        }
    }

    /// `text` cut where no Markdown construct can reach from one side to the other, so that the
    /// words of the pieces add up to the words of the whole: before a line that starts in the
    /// first column with neither a space, a tab nor `---`, after a blank line, outside a fenced
    /// code block, an HTML block that may hold blank lines (`<!--`, `<script`, …) and the front
    /// matter. Such a line ends every open container (a list, a quote) and every paragraph; a
    /// `---` line is kept from starting a piece because a piece's own front matter would be read
    /// there. A link reference or footnote definition (`]:` anywhere) reaches the whole text:
    /// such a text is one piece.
    static func runs(of text: String) -> [Substring] {
        var text = text
        let cuts: [Int] = text.withUTF8 { bytes in
            guard !contains(bytes, "]:") else { return [] }
            var cuts: [Int] = []
            var region: Region? = nil
            var previousIsBlank = false
            var start = 0
            var isFirst = true
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
                if let open = region {
                    if open.isClosed(by: line) { region = nil }
                } else {
                    if previousIsBlank, !isBlank, let first = line.first, first != 0x20, first != 0x09,
                       !line.starts(with: "---".utf8) {
                        cuts.append(start)
                    }
                    region = isFirst ? Region.frontMatter(opening: line) ?? Region.opened(by: line) : Region.opened(by: line)
                }
                previousIsBlank = region == nil && isBlank
                isFirst = false
                // One line break: "\r\n", "\n" or "\r" (cmark reads each as one).
                if end < bytes.count, bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { end += 1 }
                start = end + 1
            }
            return cuts
        }
        var runs: [Substring] = []
        let utf8 = text.utf8
        var lower = utf8.startIndex
        for cut in cuts {
            let upper = utf8.index(utf8.startIndex, offsetBy: cut)
            runs.append(text[lower..<upper])
            lower = upper
        }
        runs.append(text[lower...])
        return runs
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ pair: StaticString) -> Bool {
        let (first, second) = (pair.utf8Start[0], pair.utf8Start[1])
        guard bytes.count > 1 else { return false }
        for index in 0..<bytes.count - 1 where bytes[index] == first && bytes[index + 1] == second { return true }
        return false
    }

    /// A run's text, compared and hashed byte for byte (two spellings of `é` are two runs).
    private struct Run: Hashable, Sendable {
        let text: Substring

        static func == (left: Run, right: Run) -> Bool { left.text.utf8.elementsEqual(right.text.utf8) }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}

/// A block that can hold blank lines and is not cut there: a fenced code block, an HTML block of
/// the kinds that end at a marker rather than a blank line, the front matter.
private enum Region: Equatable {
    /// A code fence of `count` backticks or tildes.
    case fence(character: UInt8, count: Int)
    /// An HTML block that ends on the line holding one of `ends` (lowercase).
    case html(ends: [String])
    case frontMatter

    /// The block `line` opens, if it opens one of those (up to three spaces before it, as cmark
    /// reads a block's start).
    static func opened(by line: UnsafeBufferPointer<UInt8>) -> Region? {
        var index = 0
        while index < min(3, line.count), line[index] == 0x20 { index += 1 }
        let rest = UnsafeBufferPointer(rebasing: line[index...])
        guard let first = rest.first else { return nil }
        if first == UInt8(ascii: "`") || first == UInt8(ascii: "~") {
            let count = rest.prefix { $0 == first }.count
            return count >= 3 ? .fence(character: first, count: count) : nil
        }
        guard first == UInt8(ascii: "<") else { return nil }
        let lowered = String(decoding: rest.prefix(12), as: UTF8.self).lowercased()
        let region: Region?
        if lowered.hasPrefix("<!--") {
            region = .html(ends: ["-->"])
        } else if lowered.hasPrefix("<?") {
            region = .html(ends: ["?>"])
        } else if lowered.hasPrefix("<![cdata[") {
            region = .html(ends: ["]]>"])
        } else if lowered.hasPrefix("<!") {
            region = .html(ends: [">"])
        } else if ["<script", "<pre", "<style", "<textarea"].contains(where: { lowered.hasPrefix($0) }) {
            region = .html(ends: ["</script>", "</pre>", "</style>", "</textarea>"])
        } else {
            region = nil
        }
        // The end marker may be on the opening line itself.
        if let region, region.isClosed(by: line) { return nil }
        return region
    }

    /// Front matter as ``FrontMatter`` looks for it: `---` on the text's first line.
    static func frontMatter(opening line: UnsafeBufferPointer<UInt8>) -> Region? {
        line.starts(with: "---".utf8) ? .frontMatter : nil
    }

    /// Whether `line` ends the block (the line belongs to it).
    func isClosed(by line: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .fence(let character, let count):
            var index = 0
            while index < min(3, line.count), line[index] == 0x20 { index += 1 }
            let rest = line[index...]
            let run = rest.prefix { $0 == character }.count
            return run >= count && rest.dropFirst(run).allSatisfy { $0 == 0x20 || $0 == 0x09 }
        case .html(let ends):
            let lowered = String(decoding: line, as: UTF8.self).lowercased()
            return ends.contains { lowered.contains($0) }
        case .frontMatter:
            // The delimiter ``FrontMatter`` closes it with (when it is not YAML, it is Markdown
            // that holds no cut up to here: the pieces still add up).
            let content = line.prefix { $0 != 0x0D }
            var end = content.count
            while end > 0, content[end - 1] == 0x20 || content[end - 1] == 0x09 { end -= 1 }
            let delimiter = Array(content.prefix(end))
            return delimiter == Array("---".utf8) || delimiter == Array("...".utf8)
        }
    }
}
