import CommandLineArguments
import Dispatch
import Foundation
import Library
import ObjectGraph
import Platform

/// Runs one verb to the end and exits the process with its status.
enum VerbRunner {
    /// The exit statuses of `quire VERB`.
    enum ExitStatus {
        static let success: Int32 = 0
        static let failure: Int32 = 1
        /// The command line was wrong: an unknown verb or option, a missing argument, an ID that
        /// names no article or several (as most Unix tools, and `quire help` documents it).
        static let usage: Int32 = 2
        /// `EX_UNAVAILABLE`: a service the verb needs (the sync server) could not be reached.
        static let unavailable: Int32 = 69
        /// `EX_TEMPFAIL`: try again (the library is busy; the article changed since it was read).
        static let tryAgain: Int32 = 75
        /// `EX_PROTOCOL`: the remote side refused (the sync server).
        static let refused: Int32 = 76
    }

    /// Parses the verb's arguments and runs it on the main actor. Never returns: verbs may be
    /// asynchronous, so the main queue runs (`dispatchMain`) until the verb is done.
    @MainActor
    static func runAndExit(_ verb: any Verb.Type, arguments: [String]) -> Never {
        Task { @MainActor in
            exit(await status(of: verb, arguments: arguments))
        }
        dispatchMain()
    }

    /// Runs the verb and reports errors on standard error. Whatever the outcome, the libraries the
    /// verb opened are closed before it returns, so that each library file alone holds everything.
    static func status(of verb: any Verb.Type, arguments: [String]) async -> Int32 {
        defer { OpenedLibraries.closeAll() }
        do {
            var verbArguments = VerbArguments(arguments)
            let instance = try verb.init(arguments: &verbArguments)
            try verbArguments.checkAllRead()
            try await instance.run()
            return ExitStatus.success
        } catch let error as CommandLineError {
            printError("quire \(verb.name): \(error)\n\(HelpText.usage(of: verb, briefly: true))")
            return ExitStatus.usage
        } catch let error where isUsageMistake(error) {
            printError("quire \(verb.name): \(describe(error))")
            return ExitStatus.usage
        } catch let failure as any VerbFailure {
            printError("quire \(verb.name): \(failure)")
            return failure.exitStatus
        } catch {
            printError("quire \(verb.name): \(describe(error))")
            return ExitStatus.failure
        }
    }

    /// Whether the error says the command line named several things where it had to name one (an
    /// ID prefix that begins several IDs): a usage mistake, exit status 2, with the candidates in
    /// the message. An ID that names nothing is a failure (1), as before.
    static func isUsageMistake(_ error: any Error) -> Bool {
        switch error {
        case LibraryError.ambiguousArticleID, HistoryError.ambiguousVersionID, ConflictLookupError.ambiguous,
             ConflictLookupError.severalConflicts:
            return true
        default:
            return false
        }
    }

    /// An error as the writer should read it, in the writer's language: a store's trouble as its
    /// classified message (with the technical cause after it), Library's errors as their text,
    /// anything else as it describes itself. `libraryPath` names the library in a message about
    /// an error that does not name it (a file beside it that could not be written).
    static func describe(_ error: any Error, libraryPath: String? = nil) -> String {
        switch error {
        case is LibraryProblem, is StoreError, is MigrationError, is FileOperationError:
            let path = (error as? LibraryProblem)?.path ?? (error as? StoreError)?.path ?? libraryPath ?? ""
            let problem = LibraryProblem.classify(error, path: path)
            let hint = problem.remedies.contains(.recover) ? "\n" + gettext("Run 'quire check --recover' to move it aside and recover what can be read.") : ""
            return problem.message.translated + (problem.detail.isEmpty ? "" : "\n(\(problem.detail))") + hint
        case let error as LibraryError:
            return error.text.translated
        default:
            return "\(error)"
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
