/// A sentence or phrase written once, in English, that can be read in English (what `--json` and
/// the log carry, stable across languages) or in the user's language (what a writer reads). Layers
/// below the UI (Library) describe what happened with it and leave the choice of language to
/// whoever shows the text.
///
/// The template is a c-format message of Quire's catalogue, marked for `xgettext` by the name
/// `TranslatableText(` (`po/xgettext-args`; plurals through ``counted(_:_:_:_:)``); values go in through `%s`/`%d`/`%1$s` as with
/// ``Swift/String/init(cFormat:_:)``. A value that is itself a `TranslatableText` is translated
/// with the text around it:
///
///     let kind = TranslatableText("edited on both sides")
///     let text = TranslatableText("“%1$s” was %2$s.", title, kind)
///     text.english     // "“Notes” was edited on both sides."  (--json)
///     text.translated  // "„Notes“ wurde auf beiden Seiten bearbeitet."  (LANGUAGE=de)
public struct TranslatableText: Sendable, CustomStringConvertible {
    private enum Form: Sendable {
        case template(StaticString, [any CustomStringConvertible & Sendable])
        case counted(StaticString, StaticString, Int, [any CustomStringConvertible & Sendable])
        case sentences([TranslatableText])
    }

    private let form: Form

    /// `template` filled in with `values`.
    public init(_ template: StaticString, _ values: any CustomStringConvertible & Sendable...) {
        form = .template(template, values)
    }

    /// The singular or plural form of a message for `count` (in the user's language, the
    /// catalogue's `Plural-Forms` chooses among its forms), filled in with `values`. Marked for
    /// `xgettext` by the name `TranslatableText.counted(`:
    ///
    ///     TranslatableText.counted("Recovered %d article.", "Recovered %d articles.", count, count)
    public static func counted(
        _ singular: StaticString, _ plural: StaticString, _ count: Int, _ values: any CustomStringConvertible & Sendable...
    ) -> TranslatableText {
        TranslatableText(form: .counted(singular, plural, count, values))
    }

    private init(form: Form) {
        self.form = form
    }

    /// Sentences one after the other, a space between them, each translated on its own.
    public init(sentences: [TranslatableText]) {
        form = .sentences(sentences)
    }

    /// The text in English, the same in every locale.
    public var english: String { text(translated: false) }

    /// The text in the user's language (English where the catalogue has no translation), numbers
    /// grouped as the user's locale groups them.
    public var translated: String { text(translated: true) }

    /// ``english``: what string interpolation and `String(describing:)` give, for logs and details.
    public var description: String { english }

    private func text(translated: Bool) -> String {
        func filled(_ template: String, _ values: [any CustomStringConvertible & Sendable]) -> String {
            let filled = values.map { value -> any CustomStringConvertible in
                if let text = value as? TranslatableText { return text.text(translated: translated) }
                return value
            }
            return String.fill(template, filled, localized: translated)
        }
        switch form {
        case .template(let template, let values):
            return filled(translated ? gettext(template) : template.description, values)
        case .counted(let singular, let plural, let count, let values):
            // Untranslated, gettext's own choice: the English rule.
            return filled(translated ? ngettext(singular, plural, count) : (count == 1 ? singular : plural).description, values)
        case .sentences(let sentences):
            return sentences.map { $0.text(translated: translated) }.joined(separator: " ")
        }
    }
}
