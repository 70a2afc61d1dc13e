import Foundation

/// The string literals of a Swift source file, found the way the compiler's lexer finds them
/// (comments skipped, `"…"`, `"""…"""` and raw `#"…"#` literals, interpolations with literals of
/// their own inside), each with whether it is the message of a `gettext(…)` or `ngettext(…)` call.
/// The translation tests read the sources with it to find literals nobody marked, and to check
/// that xgettext, which reads Swift as C, extracts exactly the marked ones.
struct SwiftStringLiteral: Equatable {
    /// The line the literal starts on, from 1.
    let line: Int
    /// Its text with escapes decoded and each interpolation as `{}`.
    let text: String
    /// Whether it spans lines (`"""`) or is raw (`#"`): xgettext cannot read either as C.
    let isMultilineOrRaw: Bool
    /// Whether it is the first or, for ngettext, the second argument of a gettext call.
    let isMarked: Bool
    /// The source line it starts on, for exclusions and messages.
    let sourceLine: String

    /// Every literal of `source`, interpolated ones included (their inner literals too).
    static func all(in source: String) -> [SwiftStringLiteral] {
        var scanner = Scanner(scalars: Array(source.unicodeScalars))
        scanner.scan()
        let lines = source.components(separatedBy: "\n")
        return scanner.found.map { found in
            SwiftStringLiteral(
                line: found.line, text: found.text, isMultilineOrRaw: found.isMultilineOrRaw,
                isMarked: Self.isMessage(before: found.before), sourceLine: lines[found.line - 1])
        }
    }

    /// Whether the code just before a literal opens a gettext call (or a `TranslatableText`, which
    /// translates later) or is the first message of a plural (ngettext, `TranslatableText.counted`).
    private static func isMessage(before code: String) -> Bool {
        let tail = String(code.suffix(400))
        return tail.range(of: #"(^|[^A-Za-z0-9_.])(n?gettext|TranslatableText|TranslatableText\.counted)\(\s*$"#, options: .regularExpression) != nil
            || tail.range(of: #"(^|[^A-Za-z0-9_.])(ngettext|TranslatableText\.counted)\(\s*"([^"\\]|\\.)*"\s*,\s*$"#, options: .regularExpression) != nil
    }

    private struct Found {
        let line: Int
        let text: String
        let isMultilineOrRaw: Bool
        let before: String
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var found: [Found] = []

        init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            index + offset < scalars.count ? scalars[index + offset] : nil
        }

        mutating func advance() {
            if scalars[index] == "\n" { line += 1 }
            index += 1
        }

        /// Scans code until the end, or until the `)` that closes an interpolation when `depth` is 1.
        mutating func scan(closingInterpolation: Bool = false) {
            var depth = 0
            while let scalar = peek() {
                if scalar == "/", peek(1) == "/" {
                    while let next = peek(), next != "\n" { _ = next; advance() }
                } else if scalar == "/", peek(1) == "*" {
                    skipBlockComment()
                } else if scalar == "\"" || (scalar == "#" && isRawStringStart()) {
                    literal()
                } else {
                    if closingInterpolation {
                        if scalar == "(" { depth += 1 }
                        if scalar == ")" {
                            if depth == 0 { advance(); return }
                            depth -= 1
                        }
                    }
                    advance()
                }
            }
        }

        func isRawStringStart() -> Bool {
            var offset = 0
            while peek(offset) == "#" { offset += 1 }
            return peek(offset) == "\""
        }

        mutating func skipBlockComment() {
            var depth = 0
            while let scalar = peek() {
                if scalar == "/", peek(1) == "*" { depth += 1; advance(); advance(); continue }
                if scalar == "*", peek(1) == "/" {
                    depth -= 1; advance(); advance()
                    if depth == 0 { return }
                    continue
                }
                advance()
            }
        }

        mutating func literal() {
            let start = index
            let startLine = line
            var hashes = 0
            while peek() == "#" { hashes += 1; advance() }
            let multiline = peek() == "\"" && peek(1) == "\"" && peek(2) == "\""
            for _ in 0..<(multiline ? 3 : 1) { advance() }
            var text = ""
            while let scalar = peek() {
                if scalar == "\\" && hashesFollow(hashes, from: 1) {
                    let escapeStart = 1 + hashes
                    let kind = peek(escapeStart)
                    for _ in 0..<escapeStart { advance() }
                    switch kind {
                    case "(":
                        advance()
                        scan(closingInterpolation: true)
                        text += "{}"
                    case "n": advance(); text += "\n"
                    case "t": advance(); text += "\t"
                    case "u":
                        advance()
                        var digits = ""
                        advance()  // {
                        while let digit = peek(), digit != "}" { digits.unicodeScalars.append(digit); advance() }
                        advance()
                        if let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) { text.unicodeScalars.append(decoded) }
                    case let other?:
                        advance()
                        text.unicodeScalars.append(other)
                    case nil: break
                    }
                    continue
                }
                if scalar == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) {
                    let quotes = multiline ? 3 : 1
                    if hashesFollow(hashes, from: quotes) {
                        for _ in 0..<(quotes + hashes) { advance() }
                        break
                    }
                }
                text.unicodeScalars.append(scalar)
                advance()
            }
            let before = String(String.UnicodeScalarView(scalars[max(0, start - 400)..<start]))
            found.append(Found(line: startLine, text: text, isMultilineOrRaw: multiline || hashes > 0, before: before))
        }

        /// Whether `count` `#` follow at `offset` from here.
        func hashesFollow(_ count: Int, from offset: Int) -> Bool {
            (0..<count).allSatisfy { peek(offset + $0) == "#" }
        }
    }
}
