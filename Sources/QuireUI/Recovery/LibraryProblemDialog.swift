import Foundation
import GtkKit
import Library
import Platform

/// A message dialog about a library that cannot be used as it is (a ``LibraryProblem``): an
/// ``ErrorDialog`` with its title, its message, the technical detail under "Details", and one
/// button per choice the writer has. ``LibraryStartup`` and ``LibraryConditionAlert`` pick the
/// choices.
///
/// ```swift
/// let dialog = try LibraryProblemDialog(problem, choices: [.quit, .openReadOnly], over: window)
/// dialog.present()
/// if await dialog.awaitChoice() == .openReadOnly { ... }
/// ```
@MainActor
final class LibraryProblemDialog {
    /// What the writer can answer. Closing the dialog answers ``quit``, ``dismiss`` or
    /// ``continueReadOnly``, whichever it offers.
    enum Choice: String, CaseIterable {
        case quit, dismiss, retry, openReadOnly = "open-read-only", export, recover, continueReadOnly = "continue-read-only"

        /// The button's label.
        var label: String {
            switch self {
            case .quit: return gettext("_Quit")
            case .dismiss: return gettext("_Keep Writing")
            case .retry: return gettext("_Try Again")
            case .openReadOnly: return gettext("_Open Read-Only")
            case .export: return gettext("_Export…")
            case .recover: return gettext("_Recover Articles")
            case .continueReadOnly: return gettext("_Continue Read-Only")
            }
        }
    }

    let problem: LibraryProblem
    let window: MessageDialog
    /// The writer's answer, once given.
    private(set) var choice: Choice?
    private var waiting: [CheckedContinuation<Choice, Never>] = []
    /// The dialog itself while it is shown: the window's handlers hold it weakly.
    private var retainedUntilAnswered: LibraryProblemDialog?

    /// A dialog for `problem` offering `choices` (the last one is the suggested default), modal over `parent`.
    init(_ problem: LibraryProblem, choices: [Choice], over parent: Window?) throws {
        precondition(!choices.isEmpty, "a problem dialog needs a way out")
        self.problem = problem
        window = try ErrorDialog(heading: problem.title.translated, sentence: problem.message.translated, details: problem.detail, over: parent).window
        let suggested = choices.count > 1 ? choices.last : nil
        for choice in choices {
            window.addResponse(choice.rawValue, label: choice.label, appearance: choice == suggested ? .suggested : .default)
        }
        window.defaultResponse = suggested?.rawValue
        let closing = choices.first { [.quit, .dismiss, .continueReadOnly].contains($0) } ?? choices[0]
        window.closeResponse = closing.rawValue
        window.connect(.response) { [weak self] response in
            self?.answer(Choice(rawValue: response) ?? closing)
        }
        // Destroyed without an answer (the application quitting): the way out.
        window.onDestroyed { [weak self] in
            guard let self else { return }
            Task { @MainActor in self.answer(closing) }
        }
    }

    /// Shows the dialog; it stays alive until answered.
    func present() {
        retainedUntilAnswered = self
        window.present()
    }

    /// Closes the dialog without an answer from the writer (the trouble went away by itself).
    func withdraw() {
        guard choice == nil else { return }
        answer(.dismiss)
        window.destroy()
    }

    /// Waits for the writer's answer.
    func awaitChoice() async -> Choice {
        if let choice { return choice }
        return await withCheckedContinuation { waiting.append($0) }
    }

    private func answer(_ choice: Choice) {
        guard self.choice == nil else { return }
        self.choice = choice
        for continuation in waiting { continuation.resume(returning: choice) }
        waiting.removeAll()
        retainedUntilAnswered = nil
    }
}
