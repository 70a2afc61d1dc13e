import CGLib
import Foundation

/// Quire's gettext domain: the catalogues are `LOCALE_FOLDER/LANG/LC_MESSAGES/quire.mo`, built
/// from `po/LANG.po`, and GtkBuilder translates the `.ui` files through the same domain.
public enum Translation {
    /// The gettext domain of every Quire string.
    public static let domain = "quire"

    /// Makes the user's locale the program's (messages, dates, numbers) and binds ``domain`` to
    /// the folder of the catalogues, before anything is translated: GLib decides once per process
    /// whether to translate at all, on the first translated string.
    ///
    /// The folder is `$QUIRE_LOCALE_DIR` when set (an uninstalled build: `run.sh` and the tests
    /// compile `po/` into one), else `share/locale` beside the program's `bin` folder, so a
    /// program installed under any prefix, or staged by `meson install --destdir`, finds its own.
    public static func start() {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, localeFolder().path)
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// Where ``start()`` looks for the catalogues.
    public static func localeFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let folder = environment["QUIRE_LOCALE_DIR"], !folder.isEmpty {
            return URL(fileURLWithPath: folder, isDirectory: true)
        }
        let program = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return program.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/locale", isDirectory: true)
    }
}

/// `message` in the user's language, from Quire's catalogue (GLib's `g_dgettext`: nothing is
/// translated under an English or C locale, as in GTK). The literal is what `xgettext` extracts
/// (`po/README.md`); a `StaticString` cannot interpolate, so a value goes in through a `%s` or
/// `%d` and ``Swift/String/init(cFormat:_:)``:
///
///     label.text = gettext("Saved")
///     toast.title = String(cFormat: gettext("“%s” moved to Trash"), title)
public func gettext(_ message: StaticString) -> String {
    // Through a String: a one-character literal is a StaticString without a C string pointer.
    message.description.withCString { String(cString: g_dgettext(Translation.domain, $0)) }
}

/// The singular or plural form for `count` in the user's language (languages have one to six
/// forms; the catalogue's `Plural-Forms` chooses). Never `count == 1 ? … : …`:
///
///     label.text = String(cFormat: ngettext("%d word", "%d words", count), count)
public func ngettext(_ singular: StaticString, _ plural: StaticString, _ count: Int) -> String {
    singular.description.withCString { one in
        plural.description.withCString { many in
            String(cString: g_dngettext(Translation.domain, one, many, gulong(clamping: max(count, 0))))
        }
    }
}

extension String {
    /// A translated c-format template filled in: `%s` takes the next argument as text, `%d` as a
    /// number, `%1$s`/`%2$d` name one by position (a translation may reorder them), `%%` is `%`.
    /// The directives are those `msgfmt --check` compares between a message and its translation.
    ///
    ///     String(cFormat: gettext("%1$s of %2$s"), "3", "7")   // "3 of 7"
    /// A whole number for a `%d` is written with the digit grouping of the user's locale
    /// (``numberText(_:)``: 12,345 / 12.345 / 12 345).
    public init(cFormat template: String, _ arguments: any CustomStringConvertible...) {
        self = Self.fill(template, arguments, localized: true)
    }

    /// ``init(cFormat:_:)`` on an array: a directive without an argument stays as it is. Numbers
    /// are grouped by the locale when `localized`, else written as Swift writes them.
    static func fill(_ template: String, _ arguments: [any CustomStringConvertible], localized: Bool) -> String {
        var result = ""
        var next = 0
        var scalars = template.unicodeScalars[...]
        while let percent = scalars.firstIndex(of: "%") {
            result.unicodeScalars.append(contentsOf: scalars[..<percent])
            var rest = scalars[scalars.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                scalars = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { ("0"..."9").contains($0) }
            var position: Int?
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
                position = Int(String(String.UnicodeScalarView(digits))).map { $0 - 1 }
                rest = rest.dropFirst(digits.count + 1)
            }
            guard let conversion = rest.first, conversion == "s" || conversion == "d" else {
                result += "%"
                scalars = scalars[scalars.index(after: percent)...]
                continue
            }
            let index = position ?? next
            next = index + 1
            if arguments.indices.contains(index) {
                if localized, conversion == "d", let number = arguments[index] as? any BinaryInteger {
                    result += numberText(number)
                } else {
                    result += arguments[index].description
                }
            } else {
                result.unicodeScalars.append(contentsOf: scalars[percent...rest.startIndex])
            }
            scalars = rest.dropFirst()
        }
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}
