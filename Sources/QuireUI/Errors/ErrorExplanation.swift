import Foundation
import GtkKit
import Library
import Transfer
import ObjectGraph
import SyncClient

/// What the writer reads about an error: a sentence in the writer's words, and the technical
/// details (the error as the code knows it) for an expander and bug reports.
///
/// This is the one place QuireUI turns errors into text: every dialog, banner, label and toast
/// that shows an error shows ``sentence``, never `"\(error)"`. Library's own sentences come
/// first: a failure of the library's store becomes a ``LibraryProblem`` and says its
/// ``LibraryProblem/message``.
///
/// ```swift
/// let explanation = ErrorExplanation(error, libraryPath: library.url.path)
/// messageLabel.text = "Could not export. " + explanation.sentence
/// ```
struct ErrorExplanation: Equatable, Sendable {
    /// What happened, for the writer: one or two sentences, ending in a full stop.
    var sentence: String
    /// The technical cause, as the error describes itself.
    var details: String

    /// The explanation of `error`. `libraryPath` names the library in sentences about its store
    /// (without it they say "the library").
    init(_ error: any Error, libraryPath: String? = nil) {
        sentence = Self.sentence(for: error, libraryPath: libraryPath ?? "the library")
        details = String(describing: error)
    }

    private static func sentence(for error: any Error, libraryPath: String) -> String {
        switch error {
        case let problem as LibraryProblem:
            return problem.message
        case is StoreError, is MigrationError:
            return LibraryProblem.classify(error, path: libraryPath).message
        case let error as LibraryError:
            return sentence(for: error)
        case let error as ObjectGraphError:
            return sentence(for: error)
        case let error as TagError:
            return sentence(for: error)
        case let error as HistoryError:
            return sentence(for: error)
        case let error as ConflictLookupError:
            return sentence(for: error)
        case let error as ExportError:
            return sentence(for: error)
        case let error as ImportError:
            return "“\(fileName(error.path))” could not be read: " + ImportPreview.reason(error) + "."
        case let error as DraftRescueError:
            return sentence(for: error)
        case let error as FileOperationError:
            return "Quire could not change “\(fileName(error.path))”: \(systemMessage(error.code))."
        case let error as AccountError:
            return sentence(for: error)
        case let error as TransportError:
            return sentence(for: error)
        case let error as RequestRejection:
            return sentence(for: error)
        case let error as SyncStoreError:
            return sentence(for: error)
        case let error as GLibError:
            return capitalized(error.message) + (error.message.hasSuffix(".") ? "" : ".")
        case is CancellationError:
            return "The work was stopped before it finished."
        case let error as NSError where error.domain == NSPOSIXErrorDomain:
            return capitalized(systemMessage(Int32(error.code))) + "."
        default:
            return "Something went wrong that Quire cannot explain. The details below say what the program saw."
        }
    }

    private static let concurrentChange =
        "Another change to the same article was saved at the same moment, so nothing was changed. Try again."

    private static func sentence(for error: TagError) -> String {
        switch error {
        case .tagNotFound(let name):
            "There is no tag named “\(name)” any more: it was renamed or deleted, here or on another device."
        }
    }

    private static func sentence(for error: HistoryError) -> String {
        switch error {
        case .versionNotFound:
            "That earlier version is no longer kept: Quire thins out old versions to keep the library small."
        case .noVersionMatching:
            "No earlier version of the article has that ID."
        case .ambiguousVersionID(_, let matches):
            "\(matches.count) earlier versions have IDs that begin that way. Give more of the ID."
        }
    }

    private static func sentence(for error: ConflictLookupError) -> String {
        switch error {
        case .noMatch:
            "No article has an open conflict with that ID: it may have been resolved already."
        case .ambiguous(_, let matches):
            "\(matches.count) conflicts or articles have IDs that begin that way. Give more of the ID."
        case .severalConflicts(_, let conflicts):
            "The article has \(conflicts.count) open conflicts. Choose one of them by its own ID."
        }
    }

    private static func sentence(for error: LibraryError) -> String {
        switch error {
        case .noLibrary(let path):
            return "There is no Quire library at \(path)."
        case .articleNotFound, .noArticleMatching, .ambiguousArticleID:
            return "The article is no longer in the library: it was deleted, here or on another device."
        case .folderNotFound(let name):
            return "There is no folder named “\(name)” any more."
        case .folderExists(let name):
            return "A folder named “\(name)” exists already. Choose another name."
        case .invalidName(let kind, let name, let reason):
            return "“\(name)” cannot be a \(kind) name: it \(reason)."
        case .invalidContent(_, let field, let reason):
            return "The article cannot be saved as it is: its \(field) \(reason)."
        case .conflictNotFound, .conflictAlreadyResolved:
            return "This conflict was resolved already, in this window or another."
        case .resolutionNotApplicable(_, let reason):
            return "That choice does not fit this conflict: \(reason)."
        case .conflictChanged:
            return "The conflict changed while you decided, so nothing was changed. Look at it again."
        case .draftNotFound:
            return "The unsaved text was restored or discarded already."
        case .revisionChanged:
            return "The article changed after Quire read it, so nothing was overwritten. Try again."
        }
    }

    private static func sentence(for error: ObjectGraphError) -> String {
        switch error {
        case .mergeConflicts: concurrentChange
        case .objectNotFound: "The article is no longer in the library: it was deleted, here or on another device."
        default: "Quire met a problem in its own code. The details below say what it was; please report them."
        }
    }

    private static func sentence(for error: ExportError) -> String {
        switch error {
        case .destinationExists(let path):
            return "“\(fileName(path))” already exists."
        case .invalidDestination(let path, let reason):
            return "Quire cannot export to “\(fileName(path))”: \(reason)."
        case .fileSystem(_, let path, let code):
            return "Quire could not write “\(fileName(path))”: \(systemMessage(code))."
        case .pdfFailed(let path, _):
            return "Quire could not make the PDF “\(fileName(path))”."
        }
    }

    private static func sentence(for error: DraftRescueError) -> String {
        switch error {
        case .fileSystem(_, _, let code):
            return "Quire could not keep a spare copy of your unsaved text: \(systemMessage(code))."
        case .tooLarge:
            return "Your unsaved text is too large for its spare copy; the editor still holds it. Free some disk space."
        }
    }

    private static func sentence(for error: AccountError) -> String {
        switch error {
        case .keyring(let operation, _):
            return "The keyring could not \(operation)."
        case .keyringTimedOut(let operation, _):
            return "The keyring did not \(operation) in time. Try again."
        case .settingsFile(let path, _):
            return "Quire could not read or write its sync settings in “\(fileName(path))”."
        case .invalidSettings(let path, _):
            return "The sync settings in “\(fileName(path))” are damaged. Sign in again."
        case .invalidServer(let text):
            return "“\(text)” is not an http or https URL."
        case .tokenMissing(let server):
            return "The token for \(server) is no longer in the keyring. Sign in again."
        case .tokenRefused:
            return "The server refused the account’s token. Sign in again."
        case .insecureServer:
            return "Quire does not send your token and articles unencrypted to another computer. Use https://, or turn on Allow Unencrypted HTTP."
        case .certificateAuthority(let path):
            return "“\(fileName(path))” cannot be read or holds no certificate (-----BEGIN CERTIFICATE-----)."
        }
    }

    private static func sentence(for error: TransportError) -> String {
        switch error {
        case .notSent: "The server cannot be reached."
        case .outcomeUnknown: "The server did not answer in time."
        case .invalidAnswer: "The server’s answer could not be used."
        }
    }

    private static func sentence(for rejection: RequestRejection) -> String {
        switch rejection.reason {
        case .invalidRequest: "The server refused the change as invalid."
        case .tooLarge: "The article is larger than the server accepts."
        case .idempotencyKeyReused: "The server had this change already, with other content, so Quire does not send it again."
        case .refusedBeforeSending: "Quire did not send the change: it breaks the rules of the sync protocol."
        case .unexpectedStatus: "The server refused the change" + (rejection.status.map { " (status \($0))" } ?? "") + "."
        }
    }

    private static func sentence(for error: SyncStoreError) -> String {
        switch error {
        case .leaseHeldElsewhere: "Another Quire program is syncing this library now."
        case .damagedOperation: "A change waiting to be sent is damaged, and Quire cannot send it."
        case .keptConflicting: "The library was too busy to sync. Quire tries again by itself."
        }
    }

    private static func fileName(_ path: String) -> String {
        (path as NSString).lastPathComponent
    }

    /// The operating system's words for an `errno`, such as "No space left on device".
    private static func systemMessage(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
