/// How long an article takes to read, estimated from its word count.
///
/// The rate is 230 words a minute, a little under the 238 that Brysbaert's 2019 meta-analysis of
/// 190 studies found for silent reading of English non-fiction: articles are often read with
/// more care than the texts of those studies, and a slightly long estimate disappoints less than
/// a short one. ``ArticleText`` counts each CJK character as a word, and Chinese and Japanese
/// readers manage some 250 characters a minute, so the one rate serves both. Times round up: any
/// text takes at least a minute; an article without words takes none.
public enum ReadingTime {
    /// Words read in a minute.
    public static let wordsPerMinute = 230

    /// The whole minutes `words` words take to read.
    public static func minutes(forWords words: Int) -> Int {
        words <= 0 ? 0 : (words + wordsPerMinute - 1) / wordsPerMinute
    }
}
