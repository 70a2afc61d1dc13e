import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform

/// A library the app may use, and what the writer was told while opening it.
@MainActor
public final class OpenedLibrary {
    /// The library. ``Library/access`` says whether it may be written: a read-only library
    /// (a newer Quire's, a read-only file or file system) is for reading and exporting only.
    public let library: Library
    /// What the recovery of a damaged library saved, when the library had to be recovered
    /// (the writer has seen the report).
    public let recovery: LibraryRecovery.Report?
    /// The writer chose "Export…" in the read-only notice: the app shows its export dialog next.
    public let exportRequested: Bool
    private var alert: LibraryConditionAlert?

    init(library: Library, recovery: LibraryRecovery.Report?, exportRequested: Bool) {
        self.library = library
        self.recovery = recovery
        self.exportRequested = exportRequested
    }

    /// Tells the writer, over `window`, when the disk fills up and when writing resumes (see
    /// ``LibraryConditionAlert``). Call once the main window is open; calling again moves the
    /// dialogs to the new window.
    public func watchCondition(over window: Window) {
        alert?.stop()
        alert = LibraryConditionAlert(library: library, over: window)
    }
}

/// Opens the writer's library when the app starts, showing what the writer must see on the way:
/// the upgrade's progress (the upgrade runs off the main thread), the notice of a read-only
/// library, the choice to open a newer Quire's library read-only, the recovery of a damaged
/// library and its report, or why the library cannot be opened at all.
///
/// ```swift
/// guard let opened = await LibraryStartup.open(at: Library.defaultURL(), over: nil) else {
///     application.quit()   // the writer chose to quit, or nothing could be opened
///     return
/// }
/// let window = MainWindow(library: opened.library, ...)
/// opened.watchCondition(over: window.window)
/// ```
@MainActor
public enum LibraryStartup {
    /// Opens the library at `url` (created when missing), returning nil when the writer chose to
    /// quit or closed the upgrade window, or when the library cannot be opened (after saying why).
    /// Dialogs are modal over `parent` (nil before the main window exists).
    public static func open(
        at url: URL, over parent: Window?, options: LibraryOpenOptions = LibraryOpenOptions(createIfMissing: true)
    ) async -> OpenedLibrary? {
        var recovery: LibraryRecovery.Report?
        while true {
            let opening: Result<Library, LibraryProblem>
            switch await openShowingProgress(url, options: options, over: parent) {
            case .closedByWriter: return nil
            case .done(let result): opening = result
            }
            switch opening {
            case .success(let library):
                guard case .readOnly(let reason) = library.access else {
                    return OpenedLibrary(library: library, recovery: recovery, exportRequested: false)
                }
                let choices: [LibraryProblemDialog.Choice] = reason == .newerVersion
                    ? [.quit, .export, .openReadOnly] : [.export, .continueReadOnly]
                switch await ask(LibraryProblem(.readOnly(reason), path: library.url.path), choices, over: parent) {
                case .quit: return nil
                case .export: return OpenedLibrary(library: library, recovery: recovery, exportRequested: true)
                default: return OpenedLibrary(library: library, recovery: recovery, exportRequested: false)
                }
            case .failure(let problem):
                switch await ask(problem, choices(for: problem), over: parent) {
                case .retry:
                    continue
                case .recover:
                    switch await recover(url, over: parent) {
                    case .success(let report): recovery = report
                    case .failure(let problem):
                        // Nothing more to try: say why, and stop.
                        _ = await ask(problem, [.quit], over: parent)
                        return nil
                    }
                default:
                    return nil
                }
            }
        }
    }

    /// Called with each upgrade progress window as it is made (tests follow the upgrade through it).
    static var progressWindowCreated: (@MainActor (UpgradeProgressWindow) -> Void)?

    /// What the writer can do about a library that failed to open.
    static func choices(for problem: LibraryProblem) -> [LibraryProblemDialog.Choice] {
        var choices: [LibraryProblemDialog.Choice] = [.quit]
        for remedy in problem.remedies {
            switch remedy {
            case .retry, .freeSpace: if !choices.contains(.retry) { choices.append(.retry) }
            case .recover: choices.append(.recover)
            case .openReadOnly, .export, .upgrade:
                // Opening already upgrades and falls back to read-only by itself; these problems
                // come only from callers that turned that off.
                break
            }
        }
        return choices
    }

    private enum Opening {
        case done(Result<Library, LibraryProblem>)
        case closedByWriter
    }

    /// Opens the library off the main thread, showing the upgrade's progress if it upgrades.
    /// Closing the progress window stops the waiting at once; the upgrade itself runs on (it
    /// resumes at the next start if the app quits first).
    private static func openShowingProgress(_ url: URL, options: LibraryOpenOptions, over parent: Window?) async -> Opening {
        let progressWindow = built { try UpgradeProgressWindow(over: parent) }
        progressWindowCreated?(progressWindow)
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Opening, Never>) in
            let once = Once(continuation)
            progressWindow.closed = { once.resume(.closedByWriter) }
            Task { @MainActor in
                let result: Result<Library, LibraryProblem>
                do throws(LibraryProblem) {
                    result = .success(try await Library.open(at: url, options: options) { progress in
                        Task { @MainActor in progressWindow.show(progress) }
                    })
                } catch {
                    result = .failure(error)
                }
                once.resume(.done(result))
            }
        }
        progressWindow.finish()
        return outcome
    }

    /// Quarantines the damaged library and salvages it, then shows the writer the report.
    private static func recover(_ url: URL, over parent: Window?) async -> Result<LibraryRecovery.Report, LibraryProblem> {
        let progressWindow = built { try UpgradeProgressWindow(over: parent) }
        progressWindow.showWorking(
            heading: gettext("Recovering Your Articles"),
            explanation: gettext("Quire is moving the damaged library to the quarantine folder, where it is kept unchanged, and copying everything it can read into a new library."))
        let result: Result<LibraryRecovery.Report, LibraryProblem>
        do throws(LibraryProblem) {
            result = .success(try await LibraryRecovery.recover(libraryAt: url))
        } catch {
            result = .failure(error)
        }
        progressWindow.finish()
        if case .success(let report) = result {
            let dialog = built { try RecoveryReportDialog(report, over: parent) }
            dialog.present()
            await dialog.awaitClose()
        }
        return result
    }

    /// Shows `problem` with `choices` and waits for the answer.
    private static func ask(_ problem: LibraryProblem, _ choices: [LibraryProblemDialog.Choice], over parent: Window?) async -> LibraryProblemDialog.Choice {
        let dialog = built { try LibraryProblemDialog(problem, choices: choices, over: parent) }
        dialog.present()
        return await dialog.awaitChoice()
    }
}

/// A window built from an embedded `.ui` file. The files are checked when the package is built,
/// so a failure here is a broken build, not a condition to handle.
@MainActor
func built<T>(_ make: () throws -> T) -> T {
    do {
        return try make()
    } catch {
        fatalError("an embedded UI file is broken: \(error)")
    }
}

/// Resumes a continuation the first time only (the work finishing and the writer closing the
/// window race).
@MainActor
private final class Once<Value: Sendable> {
    private var continuation: CheckedContinuation<Value, Never>?

    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }

    func resume(_ value: Value) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
