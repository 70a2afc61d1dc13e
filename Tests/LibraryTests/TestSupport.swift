import SyncProtocol
import Foundation
import Library
import QuireTestSupport

/// Articles that exercise every field and the tricky corners of text.
enum SampleArticles {
    static let created = Date(timeIntervalSince1970: 1_700_000_000.123_456)
    static let updated = Date(timeIntervalSince1970: 1_714_555_555.5)

    static func article(
        _ title: String, body: String = "Body text.\n", folder: String? = nil, tags: [String] = [],
        status: ArticleStatus = .draft, id: UUID = UUID()
    ) -> ArticleSnapshot {
        ArticleSnapshot(
            id: id, title: title, body: body, folder: folder, tags: tags, status: status, isFavorite: false,
            created: created, updated: updated)
    }

    static let hostileTitles = [
        "../../etc/x", "<script>alert('x')</script>", String(repeating: "Very long title ", count: 40), "",
        "   ", "Emoji 🎉👩🏽‍💻 party", "שלום עולם — RTL", "مرحبا بالعالم", "Control\u{0}\u{7}\u{1B}[31m chars\n\ttab",
        "Trojan \u{202E}gpj.exe", ".", "..", "CON", "a/b\\c:d*e?f\"g<h>i|j", "\"quoted\" & 'apostrophe'",
        "key: value # not a comment", "---", "Caf\u{E9} vs Cafe\u{301}", "\u{301}leading combining mark",
        "back\\\u{301}slash and quote\"\u{301}", "'single' '' quotes",
    ]

    /// A body that uses every block and inline construct the exporters handle.
    static let richBody = """
        # Introduction

        A paragraph with *emphasis*, **strong**, ~~strikethrough~~, `inline code` and a \
        [link](https://example.com/path?a=1&b=2). An autolink: www.example.org.

        ## Lists

        - first item
        - second item
          - nested item
        - [x] done task
        - [ ] open task

        1. one
        2. two

        > A block quote with *style*.
        >
        > > A nested quote.

        ```swift
        let answer = 42
        print("<not html>")
        ```

        | Name | Count | Note |
        |:-----|------:|:----:|
        | apples | 3 | fresh |
        | pears | 12 | ~~old~~ |

        ---

        <div>raw html must not appear</div>

        Final paragraph.

        """
}
