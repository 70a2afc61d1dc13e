import Foundation
import GtkWebKit
import Library
import Platform
import SyncClient

/// What the preview shows in place of an image it cannot have while an account syncs: a framed
/// sentence naming the file and why (not downloaded because the server cannot be reached, or the
/// server does not have it either), drawn as an SVG the page's `<img>` takes (no script, no
/// reference to anything outside it). Without an account the preview shows no image, as before.
enum AttachmentPlaceholder {
    /// The sentence for `reference`, which `fetch` did not bring.
    static func sentence(for reference: AttachmentReference, _ fetch: AttachmentFetch) -> String {
        switch fetch {
        case .unreachable:
            String(cFormat: gettext("“%s” is not downloaded yet: the server cannot be reached now."), reference.fileName)
        case .notOnServer:
            String(cFormat: gettext("“%s” is missing: neither this library nor the server has it."), reference.fileName)
        // Bytes need no placeholder; the case is here only to be complete.
        case .serverKeepsNone, .bytes:
            String(cFormat: gettext("“%s” is missing from this library, and the server keeps no attachments."), reference.fileName)
        }
    }

    /// How wide the picture of `sentence` is, in CSS pixels: about 7.5 pixels a character at
    /// 13 px, within what a preview column shows.
    static func width(of sentence: String) -> Int {
        min(1200, 32 + sentence.count * 15 / 2)
    }

    /// The SVG for `reference`, which `fetch` did not bring.
    static func response(for reference: AttachmentReference, _ fetch: AttachmentFetch) -> SchemeResponse {
        let sentence = sentence(for: reference, fetch)
        let text = sentence.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        let width = width(of: sentence)
        let markup = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="48" role="img" aria-label="\(text)">\
            <rect x="1" y="1" width="\(width - 2)" height="46" rx="6" fill="#8080801a" stroke="#808080" stroke-dasharray="4 3"/>\
            <text x="16" y="29" font-family="sans-serif" font-size="13" fill="#707070">\(text)</text></svg>
            """
        return SchemeResponse(bytes: Array(markup.utf8), mediaType: AttachmentMediaType.svg)
    }
}
