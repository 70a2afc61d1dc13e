import Library

/// An article as a Markdown file: YAML front matter with the article's metadata, then the body
/// exactly as the writer typed it.
///
/// ```
/// ---
/// id: 0b0a6c2e-9a51-4b36-8f0e-2d2c1f7e6a10
/// title: "On \"quoting\": a note"
/// folder: "Essays"
/// tags: ["draft", "yaml"]
/// status: draft
/// favorite: false
/// created: 2024-05-01T09:30:00Z
/// updated: 2024-05-02T17:04:12.5Z
/// server_revision: 12
/// lang: "en-US"
/// ---
/// The body…
/// ```
///
/// Strings are always double-quoted (``YAMLScalar``); a missing folder or server revision is `null`.
/// ``MarkdownFileReader`` reads these files back to the same values.
enum MarkdownFile {
    /// The file's text.
    static func text(for article: ArticleSnapshot) -> String {
        var text = "---\n"
        text += "\(FrontMatterKey.id): \(article.id.uuidString.lowercased())\n"
        text += "\(FrontMatterKey.title): \(YAMLScalar.quoted(article.title))\n"
        text += "\(FrontMatterKey.folder): \(article.folder.map(YAMLScalar.quoted) ?? "null")\n"
        text += "\(FrontMatterKey.tags): [\(article.tags.map(YAMLScalar.quoted).joined(separator: ", "))]\n"
        text += "\(FrontMatterKey.status): \(article.status.rawValue)\n"
        text += "\(FrontMatterKey.favorite): \(article.isFavorite)\n"
        text += "\(FrontMatterKey.created): \(Timestamp.string(from: article.created))\n"
        text += "\(FrontMatterKey.updated): \(Timestamp.string(from: article.updated))\n"
        text += "\(FrontMatterKey.serverRevision): \(article.serverRevision.map(String.init) ?? "null")\n"
        if let language = article.language {
            text += "\(FrontMatterKey.language): \(YAMLScalar.quoted(ArticleLanguage.bcp47(language)))\n"
        }
        text += "---\n"
        return text + article.body
    }
}
