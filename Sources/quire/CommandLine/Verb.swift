import CommandLineArguments

/// A command-line verb: `quire NAME ARGUMENTS...`, such as `quire list --library PATH`.
///
/// Verbs run without a display and never initialize GTK. Adding one takes a file in `Verbs/`
/// with a type conforming to `Verb`, plus the type in ``Verbs/all``:
///
/// ```swift
/// struct ListVerb: Verb {
///     static let name = "list"
///     static let summary = "List the articles of a library"
///     static let usage = "[--library PATH] [--json]"
///
///     let libraryPath: String?
///     let emitsJSON: Bool
///
///     init(arguments: inout VerbArguments) throws(CommandLineError) {
///         libraryPath = try arguments.option("--library")
///         emitsJSON = arguments.flag("--json")
///     }
///
///     func run() async throws {
///         // ... print to standard output; throw on failure
///     }
/// }
/// ```
///
/// The front handles `quire NAME --help` and `quire help NAME` from ``usage``, reports
/// arguments the initializer left unread, and maps errors to exit statuses: a
/// ``CommandLineError`` is a usage error (2), a ``VerbFailure`` its own status (which the verb's
/// ``details`` document), any other error a failure (1), printed as `quire NAME: DESCRIPTION`.
protocol Verb: Sendable {
    /// The word after `quire`.
    static var name: String { get }
    /// One line for `quire --help`.
    static var summary: String { get }
    /// The arguments after the name, for `quire help NAME`: `[--library PATH] ARTICLE`.
    /// Empty for a verb without arguments.
    static var usage: String { get }

    /// More for `quire help NAME` after the summary: options, output, exit statuses. Empty by default.
    static var details: String { get }

    /// Reads the verb's options and arguments, leaving anything it does not know.
    init(arguments: inout VerbArguments) throws(CommandLineError)

    /// Does the work, writing results to standard output.
    func run() async throws
}

extension Verb {
    static var details: String { "" }
}

/// A failure that ends a verb with an exit status of its own, so that a script can tell it from
/// others (`quire sync` unreachable, refused, busy). The verb's ``Verb/details`` list them.
protocol VerbFailure: Error, CustomStringConvertible {
    /// The process's exit status.
    var exitStatus: Int32 { get }
}
