import Foundation
import Library

/// A sheet of paper for PDF export, in PostScript points (1/72 inch).
public struct PaperSize: Sendable, Hashable {
    /// A name for the size ("A4", "Letter", or the size in millimetres).
    public var name: String
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size in points.
    public init(name: String, width: Double, height: Double) {
        self.name = name
        self.width = width
        self.height = height
    }

    /// ISO A4, 210 × 297 mm.
    public static let a4 = PaperSize(millimetresWide: 210, high: 297, name: "A4")
    /// US Letter, 8.5 × 11 in.
    public static let letter = PaperSize(name: "Letter", width: 612, height: 792)

    private init(millimetresWide width: Int, high height: Int, name: String) {
        self.init(name: name, width: Double(width) * 72 / 25.4, height: Double(height) * 72 / 25.4)
    }

    /// The paper of the writer's locale, as `locale height width` reports it: the locale named by
    /// `LC_ALL`, else `LC_PAPER`, else `LANG`, asked for its `LC_PAPER` height and width. When that
    /// locale is not installed, its territory decides: the Americas that use Letter get Letter,
    /// everyone else A4.
    public static func fromLocale(environment: [String: String] = ProcessInfo.processInfo.environment) -> PaperSize {
        let name = ["LC_ALL", "LC_PAPER", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        return forLocale(named: name)
    }

    /// The paper of the locale `name` (such as `en_US.UTF-8`).
    public static func forLocale(named name: String) -> PaperSize {
        if let (width, height) = localePaperMillimetres(name) {
            switch (width, height) {
            case (210, 297): return .a4
            case (216, 279): return .letter
            case (1...2000, 1...2000): return PaperSize(millimetresWide: width, high: height, name: "\(width)×\(height) mm")
            default: break
            }
        }
        return letterTerritories.contains(territory(of: name)) ? .letter : .a4
    }

    /// Territories whose glibc locales use Letter.
    private static let letterTerritories: Set<String> = [
        "US", "CA", "MX", "PH", "CL", "CO", "VE", "CR", "GT", "PA", "SV", "DO", "PR", "NI",
    ]

    /// `TT` of `ll_TT.codeset@modifier`, or "" when the name has none.
    private static func territory(of locale: String) -> String {
        guard let underscore = locale.firstIndex(of: "_") else { return "" }
        return String(locale[locale.index(after: underscore)...].prefix { $0.isLetter }).uppercased()
    }

    /// Width and height from the installed locale's LC_PAPER, or `nil` when it is not installed.
    private static func localePaperMillimetres(_ name: String) -> (Int, Int)? {
        guard let locale = newlocale(1 << LC_PAPER, name, nil) else { return nil }
        defer { freelocale(locale) }
        // _NL_PAPER_HEIGHT and _NL_PAPER_WIDTH are items 0 and 1 of LC_PAPER. Their answers are
        // numbers in the low 32 bits of the returned pointer, as glibc's `locale` command reads them.
        func item(_ index: Int32) -> Int {
            let answer = nl_langinfo_l(nl_item((LC_PAPER << 16) | index), locale)
            return Int(UInt32(truncatingIfNeeded: Int(bitPattern: answer)))
        }
        return (item(1), item(0))
    }
}
