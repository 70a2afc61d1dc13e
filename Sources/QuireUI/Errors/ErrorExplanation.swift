import Foundation
import GtkKit
import Library
import Platform
import Transfer
import ObjectGraph
import SyncClient
import SyncProtocol

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
struct ErrorExplanation: Hashable, Sendable {
    /// What happened, for the writer: one or two sentences, ending in a full stop.
    var sentence: String
    /// The technical cause, as the error describes itself.
    var details: String

    /// The explanation of `error`. `libraryPath` names the library in sentences about its store
    /// (without it they say "the library").
    init(_ error: any Error, libraryPath: String? = nil) {
        sentence = Self.sentence(for: error, libraryPath: libraryPath ?? gettext("the library"))
        details = String(describing: error)
    }

    private static func sentence(for error: any Error, libraryPath: String) -> String {
        switch error {
        case let problem as LibraryProblem:
            return problem.message.translated
        case is StoreError, is MigrationError:
            return LibraryProblem.classify(error, path: libraryPath).message.translated
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
            return String(cFormat: gettext("“%1$s” could not be read: %2$s."), fileName(error.path), ImportPreview.reason(error))
        case let error as DraftRescueError:
            return sentence(for: error)
        case let failure as DraftRecorderFailure:
            // The step is the heading's to say (DraftSession.heading(forRecorderStep:)).
            return sentence(for: failure.error, libraryPath: libraryPath)
        case let error as ExternalBinaryError:
            return error.kind == .damaged
                ? gettext("An attachment’s file changed after it was saved, so Quire cannot show it as it was. “quire check” lists the articles it belongs to.")
                : gettext("An attachment’s file is missing or cannot be read. “quire check” lists the articles it belongs to.")
        case let error as AttachableFileError:
            return String(cFormat: gettext("“%1$s” could not be read: %2$s. Nothing was added."), fileName(error.path), systemMessage(error.code))
        case let error as FileOperationError where (error.path as NSString).deletingLastPathComponent.hasSuffix(ExternalBinaryFolder.suffix):
            // The file is named by its digest, which says nothing to the writer.
            return String(cFormat: gettext("Quire could not store an attachment’s file beside the library: %s."), systemMessage(error.code))
        case let error as FileOperationError:
            return String(cFormat: gettext("Quire could not change “%1$s”: %2$s."), fileName(error.path), systemMessage(error.code))
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
            return gettext("The work was stopped before it finished.")
        case let error as NSError where error.domain == NSPOSIXErrorDomain:
            return capitalized(systemMessage(Int32(error.code))) + "."
        default:
            return gettext("Something went wrong that Quire cannot explain. The details below say what the program saw.")
        }
    }

    private static let concurrentChange =
        gettext("Another change to the same article was saved at the same moment, so nothing was changed. Try again.")

    private static func sentence(for error: TagError) -> String {
        switch error {
        case .tagNotFound(let name):
            String(cFormat: gettext("There is no tag named “%s” any more: it was renamed or deleted, here or on another device."), name)
        }
    }

    private static func sentence(for error: HistoryError) -> String {
        switch error {
        case .versionNotFound:
            gettext("That earlier version is no longer kept: Quire thins out old versions to keep the library small.")
        case .noVersionMatching:
            gettext("No earlier version of the article has that ID.")
        case .ambiguousVersionID(_, let matches):
            String(cFormat: ngettext("%d earlier version has an ID that begins that way. Give more of the ID.", "%d earlier versions have IDs that begin that way. Give more of the ID.", matches.count), matches.count)
        }
    }

    private static func sentence(for error: ConflictLookupError) -> String {
        switch error {
        case .noMatch:
            gettext("No article has an open conflict with that ID: it may have been resolved already.")
        case .ambiguous(_, let matches):
            String(cFormat: ngettext("%d conflict or article has an ID that begins that way. Give more of the ID.", "%d conflicts or articles have IDs that begin that way. Give more of the ID.", matches.count), matches.count)
        case .severalConflicts(_, let conflicts):
            String(cFormat: ngettext("The article has %d open conflict. Choose it by its own ID.", "The article has %d open conflicts. Choose one of them by its own ID.", conflicts.count), conflicts.count)
        }
    }

    private static func sentence(for error: LibraryError) -> String {
        switch error {
        case .noLibrary(let path):
            return String(cFormat: gettext("There is no Quire library at %s."), path)
        case .articleNotFound, .noArticleMatching, .ambiguousArticleID:
            return gettext("The article is no longer in the library: it was deleted, here or on another device.")
        case .folderNotFound(let name):
            return String(cFormat: gettext("There is no folder named “%s” any more."), name)
        case .folderExists(let name):
            return String(cFormat: gettext("A folder named “%s” exists already. Choose another name."), name)
        case .invalidName(let kind, let name, let reason):
            // Library's kinds are "folder" and "tag": one sentence for each, so that translators see whole sentences.
            let sentence = kind == "tag" ? gettext("“%1$s” cannot be a tag name: it %2$s.") : gettext("“%1$s” cannot be a folder name: it %2$s.")
            return String(cFormat: sentence, name, reason.text.translated)
        case .invalidContent(_, let violation):
            return sentence(for: violation)
        case .conflictNotFound, .conflictAlreadyResolved:
            return gettext("This conflict was resolved already, in this window or another.")
        case .resolutionNotApplicable(_, let reason):
            return String(cFormat: gettext("That choice does not fit this conflict: %s."), reason.text.translated)
        case .conflictChanged:
            return gettext("The conflict changed while you decided, so nothing was changed. Look at it again.")
        case .draftNotFound:
            return gettext("The unsaved text was restored or discarded already.")
        case .revisionChanged:
            return gettext("The article changed after Quire read it, so nothing was overwritten. Try again.")
        case .attachmentTooLarge(let fileName, let size, let limit):
            return String(cFormat: gettext("“%1$s” is %2$s; a library takes files of up to %3$s. Nothing was added."), fileName, fileSizeText(size), fileSizeText(limit))
        }
    }

    /// Content the sync protocol cannot carry, in the writer's words: SyncProtocol writes its
    /// reasons in English only (it knows no catalogue), so each rule has its sentence here.
    private static func sentence(for violation: FieldViolation) -> String {
        let field: String
        switch violation.field {
        case "title": field = gettext("Title")
        case "body": field = gettext("Text")
        case "folder": field = gettext("Folder")
        case "language": field = gettext("Language")
        case let tag where tag.hasPrefix("tags"): field = gettext("Tags")
        default: field = violation.field
        }
        switch violation.rule {
        case .containsNUL:
            return String(cFormat: gettext("The article cannot be saved as it is: its field “%s” contains the character U+0000, which cannot be synced."), field)
        case .longerThan(let bytes):
            return String(cFormat: ngettext("The article cannot be saved as it is: its field “%1$s” is longer than %2$d byte.",
                "The article cannot be saved as it is: its field “%1$s” is longer than %2$d bytes.", bytes), field, bytes)
        case .moreTagsThan(let count):
            return String(cFormat: ngettext("The article cannot be saved as it is: it has more than %d tag.",
                "The article cannot be saved as it is: it has more than %d tags.", count), count)
        case nil:
            return String(cFormat: gettext("The article cannot be saved as it is: its %1$s %2$s."), field, violation.reason)
        }
    }

    private static func sentence(for error: ObjectGraphError) -> String {
        switch error {
        case .mergeConflicts: concurrentChange
        case .objectNotFound: gettext("The article is no longer in the library: it was deleted, here or on another device.")
        default: gettext("Quire met a problem in its own code. The details below say what it was; please report them.")
        }
    }

    private static func sentence(for error: ExportError) -> String {
        switch error {
        case .destinationExists(let path):
            return String(cFormat: gettext("“%s” already exists."), fileName(path))
        case .invalidDestination(let path, let reason):
            return String(cFormat: gettext("Quire cannot export to “%1$s”: %2$s."), fileName(path), reason)
        case .fileSystem(_, let path, let code):
            return String(cFormat: gettext("Quire could not write “%1$s”: %2$s."), fileName(path), systemMessage(code))
        case .pdfFailed(let path, _):
            return String(cFormat: gettext("Quire could not make the PDF “%s”."), fileName(path))
        }
    }

    private static func sentence(for error: DraftRescueError) -> String {
        switch error {
        case .spaceNotReserved(_, _, let code):
            return String(cFormat: gettext("Quire could not set aside disk space for a spare copy of unsaved text: %s. Nothing is lost. Should the disk fill up, text not yet saved would be kept only while Quire runs, until there is space again."), systemMessage(code))
        case .fileSystem(_, _, let code):
            return String(cFormat: gettext("Quire could not keep a spare copy of your unsaved text: %s."), systemMessage(code))
        case .tooLarge:
            return gettext("Your unsaved text is too large for its spare copy; the editor still holds it. Free some disk space.")
        }
    }

    private static func sentence(for error: AccountError) -> String {
        switch error {
        case .keyring(let operation, _):
            return String(cFormat: gettext("The keyring could not %s."), operation)
        case .keyringTimedOut(let operation, _):
            return String(cFormat: gettext("The keyring did not %s in time. Try again."), operation)
        case .settingsFile(let path, _):
            return String(cFormat: gettext("Quire could not read or write its sync settings in “%s”."), fileName(path))
        case .invalidSettings(let path, _):
            return String(cFormat: gettext("The sync settings in “%s” are damaged. Sign in again."), fileName(path))
        case .invalidServer(let text):
            return String(cFormat: gettext("“%s” is not an http or https URL."), text)
        case .tokenMissing(let server):
            return String(cFormat: gettext("The token for %s is no longer in the keyring. Sign in again."), server)
        case .tokenRefused:
            return gettext("The server refused the account’s token. Sign in again.")
        case .insecureServer:
            return gettext("Quire does not send your token and articles unencrypted to another computer. Use https://, or turn on Allow Unencrypted HTTP.")
        case .certificateAuthority(let path):
            return String(cFormat: gettext("“%s” cannot be read or holds no certificate (-----BEGIN CERTIFICATE-----)."), fileName(path))
        }
    }

    private static func sentence(for error: TransportError) -> String {
        switch error {
        case .notSent: gettext("The server cannot be reached.")
        case .outcomeUnknown: gettext("The server did not answer in time.")
        case .invalidAnswer: gettext("The server’s answer could not be used.")
        }
    }

    private static func sentence(for rejection: RequestRejection) -> String {
        switch rejection.reason {
        case .invalidRequest: gettext("The server refused the change as invalid.")
        case .tooLarge: gettext("The article is larger than the server accepts.")
        case .idempotencyKeyReused: gettext("The server had this change already, with other content, so Quire does not send it again.")
        case .refusedBeforeSending: gettext("Quire did not send the change: it breaks the rules of the sync protocol.")
        case .unexpectedStatus: rejection.status.map { String(cFormat: gettext("The server refused the change (status %d)."), $0) } ?? gettext("The server refused the change.")
        }
    }

    private static func sentence(for error: SyncStoreError) -> String {
        switch error {
        case .leaseHeldElsewhere: gettext("Another Quire program is syncing this library now.")
        case .damagedOperation: gettext("A change waiting to be sent is damaged, and Quire cannot send it.")
        case .keptConflicting: gettext("The library was too busy to sync. Quire tries again by itself.")
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
