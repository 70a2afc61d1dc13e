/// The CSS embedded in every exported HTML document: readable on screen in light and dark (it follows
/// `prefers-color-scheme` on screens only), and plain black on white with sensible page breaks in print.
enum ExportStyleSheet {
    /// The colours of the light style, as CSS custom properties.
    static let lightColors = """
        --text: #1f1f1f; --muted: #5e5e5e; --background: #ffffff; --rule: #d0d0d0;
        --code-background: #f3f3f3; --link: #1a5fb4; --quote: #6a6a6a;
        """
    /// The colours of the dark style.
    static let darkColors = """
        --text: #e6e6e6; --muted: #a8a8a8; --background: #1e1e1e; --rule: #444444;
        --code-background: #2a2a2a; --link: #78aeed; --quote: #b0b0b0;
        """

    static let css = """
        :root {
          color-scheme: light dark;
          \(lightColors)
        }
        @media screen and (prefers-color-scheme: dark) {
          :root {
            \(darkColors)
          }
        }
        html { background: var(--background); color: var(--text); }
        body {
          font-family: "Noto Serif", "DejaVu Serif", Georgia, serif; font-size: 1.05rem; line-height: 1.6;
          max-width: 44em; margin: 2.5em auto; padding: 0 1.2em; overflow-wrap: break-word;
        }
        h1, h2, h3, h4, h5, h6, nav.toc, .meta {
          font-family: "Cantarell", "Noto Sans", "DejaVu Sans", system-ui, sans-serif; line-height: 1.25;
        }
        h1.title { font-size: 2em; margin-bottom: 0.2em; }
        .meta { color: var(--muted); font-size: 0.9em; margin-top: 0; }
        .meta .tag { border: 1px solid var(--rule); border-radius: 0.8em; padding: 0 0.5em; margin-right: 0.3em; }
        a { color: var(--link); }
        code, pre { font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 0.9em; }
        code { background: var(--code-background); padding: 0.1em 0.3em; border-radius: 3px; }
        pre { background: var(--code-background); padding: 0.8em 1em; overflow-x: auto; border-radius: 4px; }
        pre code { background: none; padding: 0; }
        blockquote { margin: 1em 0; padding: 0 1em; border-left: 3px solid var(--rule); color: var(--quote); }
        table { border-collapse: collapse; margin: 1em 0; }
        th, td { border: 1px solid var(--rule); padding: 0.3em 0.6em; }
        th { background: var(--code-background); }
        img { max-width: 100%; }
        hr { border: none; border-top: 1px solid var(--rule); margin: 2em 0; }
        li > input[type="checkbox"] { margin-right: 0.4em; }
        nav.toc ol { padding-left: 1.4em; }
        article + article { margin-top: 4em; border-top: 1px solid var(--rule); padding-top: 1em; }
        @page { margin: 2cm; }
        @media print {
          html { background: none; color: #000000; }
          body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
          a { color: inherit; }
          a[href^="http"]::after { content: " (" attr(href) ")"; font-size: 0.85em; color: #444444; }
          pre, blockquote, table, img { page-break-inside: avoid; }
          h1, h2, h3, h4, h5, h6 { page-break-after: avoid; }
          nav.toc { page-break-after: always; }
          article + article { page-break-before: always; border-top: none; margin-top: 0; }
        }
        """
}
