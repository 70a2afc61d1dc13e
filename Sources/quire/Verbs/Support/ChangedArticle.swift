import Foundation
import Library
import Platform
import Transfer

/// What the verbs that change one article's tags, star, status or folder print: the article's
/// ID and the field as it is now, or with `--json` the article as `quire show --json` prints it.
enum ChangedArticle {
    /// Prints `article` after a change: `ID  field` (the ID in lower case), or the whole article.
    static func print(_ article: ArticleSnapshot, field: String, asJSON: Bool) throws {
        if asJSON {
            try VerbOutput.printJSON(ArchivedArticle(article, includingSync: true))
        } else {
            Swift.print("\(article.id.uuidString.lowercased())  \(field)")
        }
    }

    /// The article's tags for a person: comma-separated, or "no tags".
    static func tags(_ article: ArticleSnapshot) -> String {
        article.tags.isEmpty ? gettext("no tags") : String(cFormat: gettext("tags: %s"), article.tags.joined(separator: ", "))
    }
}
