import Library

/// The pieces of an exported HTML document: a standalone page per article, or one page that holds
/// a table of contents and then every article. Every piece of article text is escaped
/// (``HTMLText``); article bodies go through cmark-gfm in safe mode (``MarkdownDocument``), and a
/// Content-Security-Policy forbids scripts in case anything slipped through.
enum HTMLDocument {
    /// The Content-Security-Policy of an exported page: no scripts, images from anywhere.
    static let exportPolicy = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'"

    /// Everything up to and including `<body>`, with the export's style sheet followed by `css`,
    /// under the Content-Security-Policy `policy`.
    /// `language` (a dictionary tag) becomes the page's `lang`.
    static func head(title: String, language: String? = nil, policy: String = exportPolicy, css: String = "") -> String {
        """
        <!DOCTYPE html>
        <html\(language.map { " lang=\"\(HTMLText.escape(ArticleLanguage.bcp47($0)))\"" } ?? "")>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="\(policy)">
        <meta name="generator" content="Quire">
        <title>\(HTMLText.escape(DisplayTitle.of(title)))</title>
        <style>
        \(ExportStyleSheet.css)\(css)
        </style>
        </head>
        <body>

        """
    }

    /// Everything after the last article.
    static let tail = "</body>\n</html>\n"

    /// A complete page for one article.
    static func standalone(_ article: ArticleSnapshot) -> String {
        head(title: article.title, language: article.language) + self.article(article) + tail
    }

    /// One article: its title, a line of metadata, and its rendered body.
    static func article(_ article: ArticleSnapshot) -> String {
        var meta: [String] = [DisplayTitle.of(article.status)]
        if let folder = article.folder { meta.append("<span class=\"folder\">\(HTMLText.escape(folder))</span>") }
        if !article.tags.isEmpty {
            meta.append(article.tags.map { "<span class=\"tag\">\(HTMLText.escape($0))</span>" }.joined(separator: " "))
        }
        let updated = Timestamp.string(from: article.updated)
        meta.append("<time datetime=\"\(updated)\">\(updated.prefix(10))</time>")
        return """
            <article id="\(anchor(for: article))"\(article.language.map { " lang=\"\(HTMLText.escape(ArticleLanguage.bcp47($0)))\"" } ?? "") dir="auto">
            <header>
            <h1 class="title">\(HTMLText.escape(DisplayTitle.of(article.title)))</h1>
            <p class="meta">\(meta.joined(separator: " · "))</p>
            </header>
            \(MarkdownDocument(article.body).html())</article>

            """
    }

    /// The opening of the table of contents of a combined document.
    static func contentsStart(title: String) -> String {
        """
        <header><h1 class="title">\(HTMLText.escape(DisplayTitle.of(title)))</h1></header>
        <nav class="toc">
        <h2>Contents</h2>
        <ol>

        """
    }

    /// One line of the table of contents, linking to the article.
    static func contentsEntry(_ article: ArticleSnapshot) -> String {
        "<li><a href=\"#\(anchor(for: article))\" dir=\"auto\">\(HTMLText.escape(DisplayTitle.of(article.title)))</a></li>\n"
    }

    /// The end of the table of contents.
    static let contentsEnd = "</ol>\n</nav>\n"

    /// The fragment identifier of an article in a combined document; made from its UUID, so it
    /// needs no escaping and is unique.
    static func anchor(for article: ArticleSnapshot) -> String {
        "article-" + article.id.uuidString.lowercased()
    }
}
