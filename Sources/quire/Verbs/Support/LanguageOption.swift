import CommandLineArguments
import Library
import Platform

/// `--language TAG` of `quire new` and `quire edit`: an article's language as a dictionary tag.
enum LanguageOption {
    /// The option's value, checked (``ArticleLanguage/isValid(_:)``), or nil when it is absent.
    static func read(from arguments: inout VerbArguments) throws(CommandLineError) -> String? {
        guard let tag = try arguments.option("--language") else { return nil }
        guard ArticleLanguage.isValid(tag) else {
            throw .invalidValue(option: "--language", value: tag, expected: gettext("a language tag such as en_US, de_DE or fr"))
        }
        return tag
    }
}
