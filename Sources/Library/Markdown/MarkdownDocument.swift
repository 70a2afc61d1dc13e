import CMark
import Foundation

/// A Markdown text parsed by cmark-gfm with the GitHub extensions Quire renders: tables,
/// strikethrough, autolinks and task lists, and footnotes (`[^1]`, `CMARK_OPT_FOOTNOTES`). Raw HTML
/// is never rendered (it becomes a comment) and links with dangerous schemes (`javascript:`,
/// `vbscript:`, `file:`, most `data:`) lose their target: cmark-gfm's safe mode, its default,
/// which Quire never turns off.
///
/// cmark-gfm keeps a table of special characters in a process-wide global that every parse with
/// extensions writes to, so parsing is serialised behind one lock. Every parse in the process must
/// go through this type (or ``MarkdownHTML``) for that lock to protect it.
package final class MarkdownDocument {
    /// The extensions Quire enables, by their cmark-gfm names.
    package static let extensionNames = ["table", "strikethrough", "autolink", "tasklist"]
    /// The parse and render options: footnotes on. `CMARK_OPT_SAFE` is named only to say so: safe
    /// is the default, and `CMARK_OPT_UNSAFE` is never set.
    package static let options = CMARK_OPT_DEFAULT | CMARK_OPT_SAFE | CMARK_OPT_FOOTNOTES

    private static let parseLock = NSLock()
    private static let registered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    /// The document node.
    package let root: OpaquePointer
    private let parser: OpaquePointer

    /// The options of this document: ``options``, and `CMARK_OPT_SOURCEPOS` when asked for.
    private let documentOptions: Int32

    /// Parses `text`. With `sourcePositions`, every block of the HTML carries the lines and columns
    /// of its Markdown (`data-sourcepos="3:1-5:12"`, lines from 1), as the preview's scroll sync needs.
    package init(_ text: String, sourcePositions: Bool = false) {
        _ = Self.registered
        documentOptions = sourcePositions ? Self.options | CMARK_OPT_SOURCEPOS : Self.options
        Self.parseLock.lock()
        defer { Self.parseLock.unlock() }
        // cmark allocates with calloc and aborts when that fails, so these are never null.
        let parser = cmark_parser_new(documentOptions)!
        for name in Self.extensionNames {
            cmark_parser_attach_syntax_extension(parser, cmark_find_syntax_extension(name))
        }
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        self.parser = parser
        root = cmark_parser_finish(parser)!
    }

    deinit {
        cmark_node_free(root)
        cmark_parser_free(parser)
    }

    /// The document as an HTML fragment, exactly as `cmark-gfm -e table -e strikethrough -e autolink
    /// -e tasklist` prints it, with footnotes besides (Debian 12's command has no footnote option).
    package func html() -> String {
        guard let rendered = cmark_render_html(root, documentOptions, cmark_parser_get_syntax_extensions(parser)) else {
            return ""
        }
        defer { free(rendered) }
        return String(cString: rendered)
    }
}

/// Renders Markdown to an HTML fragment the way every Quire export and preview does.
public enum MarkdownHTML {
    /// The HTML fragment for `markdown` (see ``MarkdownDocument`` for the extensions and safety).
    /// With `sourcePositions`, each block element carries `data-sourcepos="START_LINE:COLUMN-END_LINE:COLUMN"`
    /// (lines from 1), and the HTML is otherwise the same.
    public static func fragment(_ markdown: String, sourcePositions: Bool = false) -> String {
        MarkdownDocument(markdown, sourcePositions: sourcePositions).html()
    }
}
