import GtkKit
import Library
import Platform

/// How the editor shows text: the writer's choices on the Editor page of Preferences.
struct EditorAppearance: Equatable {
    /// The font of the article text.
    enum Font: String, CaseIterable {
        /// The desktop's document font (GNOME's `document-font-name`), a proportional reading font.
        case document
        case serif
        case sans
        case monospace

        /// What the Preferences page calls it.
        var label: String {
            switch self {
            case .document: gettext("Document Font")
            case .serif: gettext("Serif")
            case .sans: gettext("Sans Serif")
            case .monospace: gettext("Monospace")
            }
        }
    }

    var font: Font = .document
    /// Points.
    var fontSize = 12
    /// A multiple of the font size.
    var lineSpacing = 1.5
    /// The widest the text column gets, in characters.
    var columnWidth = 70
    var showsWordCount = true
    var showsReadingTime = true
    var typewriterScrolling = false
    var dimsOtherParagraphs = false

    /// The CSS `font-family` of ``font``; `documentFont` is the desktop's document font family,
    /// if it names one.
    func fontFamily(documentFont: String?) -> String {
        switch font {
        case .document: [documentFont.map { "\"\($0)\"" }, "\"Cantarell\"", "\"Noto Sans\"", "\"DejaVu Sans\"", "sans-serif"]
                .compactMap { $0 }.joined(separator: ", ")
        case .serif: "\"Noto Serif\", \"DejaVu Serif\", serif"
        case .sans: "\"Noto Sans\", \"DejaVu Sans\", sans-serif"
        case .monospace: "monospace"
        }
    }

    /// The extra pixels between lines that ``lineSpacing`` asks for at ``fontSize``.
    var extraLinePixels: Int {
        let pixels = Double(fontSize) * 96 / 72
        return max(0, Int((pixels * (lineSpacing - 1)).rounded()))
    }
}

/// Light, dark, or the desktop's choice (libadwaita's style manager).
enum StyleChoice: String, CaseIterable {
    case system, light, dark

    var label: String {
        switch self {
        case .system: gettext("Follow System")
        case .light: gettext("Light")
        case .dark: gettext("Dark")
        }
    }

    var colorScheme: StyleManager.ColorScheme {
        switch self {
        case .system: .default
        case .light: .forceLight
        case .dark: .forceDark
        }
    }
}

/// The editor's preferences in GSettings (`editor-font`, `editor-font-size`,
/// `editor-line-spacing`, `editor-column-width`, `show-word-count`, `show-reading-time`, `style`,
/// `preview-visible`, `typewriter-scrolling`, `dim-other-paragraphs`), read and written as Swift
/// values. A change from anywhere (the Preferences page, `gsettings set`) reaches ``changed``.
/// Without an installed schema the values live in memory for the run.
@MainActor
final class EditorPreferences {
    /// Called after any of them changed.
    var changed: (@MainActor () -> Void)?

    let settings: Settings?
    private var memory = EditorAppearance()
    private var memoryStyle = StyleChoice.system
    private var memoryPreview = false
    /// `spell-check` and `default-language` without a schema (EditorPreferences+Spelling.swift).
    var memorySpelling = (checks: true, language: "")
    /// The history's size limit without a schema (EditorPreferences+History.swift).
    var memoryHistoryLimit = HistorySizeLimit.standard
    private let connections = SignalConnections()

    init(settings: Settings?) {
        self.settings = settings
        settings?.onChange(storingIn: connections) { [weak self] _ in self?.changed?() }
    }

    /// The desktop's document font family (GNOME's `org.gnome.desktop.interface`), when known.
    static let documentFont: String? = {
        guard let interface = Settings.lookup(schemaID: "org.gnome.desktop.interface"), interface.hasKey("document-font-name")
        else { return nil }
        // "Cantarell 11": the family is what comes before the size.
        let name = interface.string(forKey: "document-font-name")
        let words = name.split(separator: " ")
        guard let last = words.last, Double(last) != nil else { return name.isEmpty ? nil : name }
        return words.dropLast().joined(separator: " ")
    }()

    var appearance: EditorAppearance {
        get {
            guard let settings else { return memory }
            return EditorAppearance(
                font: EditorAppearance.Font(rawValue: settings.string(forKey: "editor-font")) ?? .document,
                fontSize: Int(settings.int(forKey: "editor-font-size")),
                lineSpacing: settings.double(forKey: "editor-line-spacing"),
                columnWidth: Int(settings.int(forKey: "editor-column-width")),
                showsWordCount: settings.bool(forKey: "show-word-count"),
                showsReadingTime: settings.bool(forKey: "show-reading-time"),
                typewriterScrolling: settings.bool(forKey: "typewriter-scrolling"),
                dimsOtherParagraphs: settings.bool(forKey: "dim-other-paragraphs"))
        }
        set {
            guard let settings else {
                memory = newValue
                changed?()
                return
            }
            let old = appearance
            if newValue.font != old.font { settings.set(newValue.font.rawValue, forKey: "editor-font") }
            if newValue.fontSize != old.fontSize { settings.set(Int32(newValue.fontSize), forKey: "editor-font-size") }
            if newValue.lineSpacing != old.lineSpacing { settings.set(newValue.lineSpacing, forKey: "editor-line-spacing") }
            if newValue.columnWidth != old.columnWidth { settings.set(Int32(newValue.columnWidth), forKey: "editor-column-width") }
            if newValue.showsWordCount != old.showsWordCount { settings.set(newValue.showsWordCount, forKey: "show-word-count") }
            if newValue.showsReadingTime != old.showsReadingTime { settings.set(newValue.showsReadingTime, forKey: "show-reading-time") }
            if newValue.typewriterScrolling != old.typewriterScrolling {
                settings.set(newValue.typewriterScrolling, forKey: "typewriter-scrolling")
            }
            if newValue.dimsOtherParagraphs != old.dimsOtherParagraphs {
                settings.set(newValue.dimsOtherParagraphs, forKey: "dim-other-paragraphs")
            }
        }
    }

    var style: StyleChoice {
        get { settings.map { StyleChoice(rawValue: $0.string(forKey: "style")) ?? .system } ?? memoryStyle }
        set { write { $0.set(newValue.rawValue, forKey: "style") } orRemember: { self.memoryStyle = newValue } }
    }

    /// Whether the preview is shown beside the text on a wide window.
    var previewVisible: Bool {
        get { settings?.bool(forKey: "preview-visible") ?? memoryPreview }
        set { write { $0.set(newValue, forKey: "preview-visible") } orRemember: { self.memoryPreview = newValue } }
    }

    /// Writes a key with `write`, or without a schema keeps the value with `remember` and tells
    /// ``changed`` (GSettings tells it of its own writes).
    func write(_ write: (Settings) -> Void, orRemember remember: () -> Void) {
        guard let settings else {
            remember()
            changed?()
            return
        }
        write(settings)
    }

    /// Applies the style to the application (libadwaita's style manager).
    func applyStyle() {
        StyleManager.shared.setColorScheme(style.colorScheme)
    }
}
