/// The words of prose, as a spell checker reads them: letters (with their combining marks) and
/// apostrophes between letters. Hyphens, underscores and Markdown's markers separate words. Words
/// with digits, single letters, and words in scripts written without spaces (Chinese, Japanese)
/// are left alone: no dictionary can judge them.
enum Words {
    /// The ranges of the words within `range` of `text`.
    static func ranges(in text: [Unicode.Scalar], within range: Range<Int>) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var index = range.lowerBound
        while index < range.upperBound {
            guard isWordScalar(text[index]) else { index += 1; continue }
            let start = index
            var hasDigit = false
            var unspaced = false
            while index < range.upperBound {
                let scalar = text[index]
                if isWordScalar(scalar) {
                    hasDigit = hasDigit || scalar.properties.numericType != nil
                    unspaced = unspaced || isUnspacedScript(scalar)
                    index += 1
                } else if scalar == "'" || scalar == "\u{2019}", index + 1 < range.upperBound,
                          text[index + 1].properties.isAlphabetic, index > start {
                    index += 1
                } else {
                    break
                }
            }
            if !hasDigit, !unspaced, index - start > 1 { words.append(start..<index) }
        }
        return words
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isAlphabetic || properties.numericType == .decimal
        }
    }

    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0x0E00...0x0EFF).contains(scalar.value)
    }
}
