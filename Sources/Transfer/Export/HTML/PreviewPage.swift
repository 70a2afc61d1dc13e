import Library

/// The page of the editor's live preview: an article rendered exactly as the HTML export renders
/// it (cmark-gfm in safe mode, the export's style sheet), so that what the writer previews is
/// what HTML and PDF export produce.
///
/// The page is loaded once (``shell(style:)``), and each new version of the article replaces the
/// contents of its `<main id="quire-preview">` (``content(title:markdown:)``), which keeps the
/// reader's place. Its Content-Security-Policy lets nothing load from anywhere (no script, font,
/// frame or remote image; images only from `data:` URLs and the article's `attachment:` references), and it carries source positions for
/// scroll sync (`data-sourcepos` on each block).
public enum PreviewPage {
    /// Light or dark, as the app's style is now.
    public enum Style: String, Sendable {
        case light, dark
    }

    /// Nothing loads but inline style, `data:` images and the article's attachments (the app's
    /// `attachment:` scheme, which the preview answers itself).
    static let policy = "default-src 'none'; img-src data: attachment:; style-src 'unsafe-inline'"

    /// The page around the article, in `style` (switched later by setting the root element's
    /// `data-style` to `light` or `dark`).
    public static func shell(style: Style) -> String {
        let css = """

            :root[data-style="light"] { color-scheme: light; \(ExportStyleSheet.lightColors) }
            :root[data-style="dark"] { color-scheme: dark; \(ExportStyleSheet.darkColors) }
            body { margin-top: 1.5em; }

            """
        return HTMLDocument.head(title: "", policy: policy, css: css)
            .replacingOccurrences(of: "<html>", with: "<html data-style=\"\(style.rawValue)\">")
            + "<main id=\"quire-preview\"></main>\n" + HTMLDocument.tail
    }

    /// The article's title and body, for the page's `<main>`.
    public static func content(title: String, markdown: String) -> String {
        """
        <article dir="auto">
        <header><h1 class="title">\(HTMLText.escape(DisplayTitle.of(title)))</h1></header>
        \(MarkdownHTML.fragment(markdown, sourcePositions: true))</article>

        """
    }
}
