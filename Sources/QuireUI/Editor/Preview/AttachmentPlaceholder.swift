import Foundation
import GtkWebKit
import Library
import Platform
import SyncClient

/// What the preview shows in place of an image it cannot have: a framed sentence naming the file
/// and why (not downloaded because the server cannot be reached, the server does not have it
/// either, or the library could not read or store it), drawn as an SVG the page's `<img>` takes
/// (no script, no reference to anything outside it). Without an account, an image the library
/// lacks shows nothing, as before.
///
/// The sentence is broken into lines of at most ``lineLength`` characters, so that the picture
/// fits the narrowest preview column at its own size: the page's `img { max-width: 100% }` scales
/// a wider picture down, text and all (a 557-pixel one line was drawn at 407 pixels, its 13-pixel
/// text at 9.5, in the main window's preview; see the README's "Attachment placeholders").
enum AttachmentPlaceholder {
    /// The most characters on one line: about 7.5 pixels each at 13 px, so a line is at most
    /// about 317 pixels wide (the preview column of a 1,400-pixel window is 408).
    static let lineLength = 38

    /// The sentence for `reference`, which `answer` did not bring.
    static func sentence(for reference: AttachmentReference, _ answer: AttachmentAnswer) -> String {
        switch answer {
        case .worker(.unreachable):
            String(cFormat: gettext("“%s” is not downloaded yet: the server cannot be reached now."), reference.fileName)
        case .worker(.notOnServer):
            String(cFormat: gettext("“%s” is missing: neither this library nor the server has it."), reference.fileName)
        case .libraryFailed(let explanation):
            String(cFormat: gettext("“%1$s” cannot be shown. %2$s"), reference.fileName, explanation.sentence)
        // Bytes need no placeholder; the case is here only to be complete.
        case .worker(.serverKeepsNone), .worker(.bytes):
            String(cFormat: gettext("“%s” is missing from this library, and the server keeps no attachments."), reference.fileName)
        }
    }

    /// `sentence` broken at spaces into lines of at most ``lineLength`` characters (a longer word,
    /// such as a long file name, is cut into lines of that length).
    static func lines(of sentence: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in sentence.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > lineLength {
                lines.append(line)
                line = ""
            }
            var rest = Substring(word)
            while line.isEmpty, rest.count > lineLength {
                lines.append(String(rest.prefix(lineLength)))
                rest = rest.dropFirst(lineLength)
            }
            line += line.isEmpty ? String(rest) : " " + rest
        }
        return line.isEmpty ? lines : lines + [line]
    }

    /// How large the picture of `sentence` is, in CSS pixels: 32 pixels of frame and margin
    /// beside about 7.5 pixels a character of its longest line, and 48 pixels for one line with
    /// 18 more for each further line.
    static func size(of sentence: String) -> (width: Int, height: Int) {
        let lines = lines(of: sentence)
        return (32 + (lines.map(\.count).max() ?? 0) * 15 / 2, 48 + 18 * max(0, lines.count - 1))
    }

    /// The SVG for `reference`, which `answer` did not bring.
    static func response(for reference: AttachmentReference, _ answer: AttachmentAnswer) -> SchemeResponse {
        let sentence = sentence(for: reference, answer)
        let (width, height) = size(of: sentence)
        let rows = lines(of: sentence).enumerated().map { index, line in row(line, at: index) }
        let markup = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" role="img" aria-label="\(escaped(sentence))">\
            <rect x="1" y="1" width="\(width - 2)" height="\(height - 2)" rx="6" fill="#8080801a" stroke="#808080" stroke-dasharray="4 3"/>\
            <text font-family="sans-serif" font-size="13" fill="#707070">\(rows.joined())</text></svg>
            """
        return SchemeResponse(bytes: Array(markup.utf8), mediaType: AttachmentMediaType.svg)
    }

    /// Line `index` (from 0) of the sentence, 18 pixels below the one before.
    private static func row(_ line: String, at index: Int) -> String {
        let markup = """
            <tspan x="16" y="\(29 + 18 * index)">\(escaped(line))</tspan>
            """
        return markup
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
