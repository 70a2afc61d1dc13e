/// A text cut into lines for diffing, each line keeping its own terminator.
///
/// Only `\n` ends a line, so `\r\n` stays whole at the end of its line and a CRLF text keeps its line
/// endings through a merge; a lone `\r` is ordinary text. The last line may have no terminator.
/// Lines are compared by their exact UTF-8 bytes (not by Swift's canonical equivalence), so a
/// change of Unicode normalisation or of line ending is an edit like any other.
struct TextLines {
    /// The lines, as slices of the original text, terminators included.
    let lines: [Substring]

    init(_ text: String) {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.utf8.startIndex
        while index != text.utf8.endIndex {
            let next = text.utf8.index(after: index)
            if text.utf8[index] == UInt8(ascii: "\n") {
                lines.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start != text.endIndex { lines.append(text[start...]) }
        self.lines = lines
    }

    var count: Int { lines.count }

    /// The text of the lines in `range`, joined as they were.
    func text(_ range: Range<Int>) -> String {
        guard let first = range.first else { return "" }
        let base = lines[first].base
        return String(base[lines[first].startIndex..<lines[range.upperBound - 1].endIndex])
    }
}

/// Gives every distinct line one small integer, so that diffs compare integers instead of strings.
struct LineInterner {
    private var numbers: [ExactLine: Int] = [:]
    /// For each number, whether the line holds nothing but whitespace.
    private(set) var isBlank: [Bool] = []

    mutating func numbers(for text: TextLines) -> [Int] {
        text.lines.map { line in
            let key = ExactLine(text: line)
            if let number = numbers[key] { return number }
            let number = isBlank.count
            numbers[key] = number
            isBlank.append(line.utf8.allSatisfy { [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) })
            return number
        }
    }
}

/// A line (or a word, ``WordDiff``) that equals another only when their UTF-8 bytes are the same.
struct ExactLine: Hashable {
    let text: Substring

    static func == (lhs: ExactLine, rhs: ExactLine) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
        // Equal lines must hash alike whatever their storage, so both paths feed the same bytes.
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
