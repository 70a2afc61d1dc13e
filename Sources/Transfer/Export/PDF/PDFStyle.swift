/// The look of exported PDFs: fonts (fontconfig names, so that the system's configured serif, sans
/// and monospace fonts are used), sizes in points, colours, and page margins.
struct PDFStyle {
    struct Color {
        let red: Double
        let green: Double
        let blue: Double
    }

    var bodyFamily = "Serif"
    var headingFamily = "Sans"
    var monospaceFamily = "Monospace"
    var bodySize = 11.0
    var codeSize = 9.5
    var titleSize = 21.0
    var metaSize = 9.0
    var footerSize = 9.0
    /// Heading sizes for levels 1 to 6.
    var headingSizes = [17.0, 14.5, 12.5, 11.5, 11.0, 11.0]

    var marginTop = 64.0
    var marginBottom = 72.0
    var marginSide = 64.0
    /// Where the page number's baseline sits, measured up from the bottom edge.
    var footerBaseline = 36.0

    /// Line height of body paragraphs as a multiple of the font's (Pango's line spacing factor).
    var lineSpacing = 1.2
    var paragraphSpacing = 7.0
    var headingSpaceBefore = 13.0
    var headingSpaceAfter = 5.0
    var listIndent = 20.0
    var quoteIndent = 14.0
    var codePadding = 4.0
    var tableCellPadding = 4.0

    var text = Color(red: 0.1, green: 0.1, blue: 0.1)
    var muted = Color(red: 0.38, green: 0.38, blue: 0.38)
    var link = Color(red: 0.1, green: 0.37, blue: 0.71)
    var rule = Color(red: 0.75, green: 0.75, blue: 0.75)
    var codeBackground = Color(red: 0.95, green: 0.95, blue: 0.95)
}
