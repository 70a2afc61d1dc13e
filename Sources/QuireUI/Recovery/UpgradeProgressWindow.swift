import Foundation
import GtkKit
import ObjectGraph
import Platform

/// The window that shows a library upgrade (or a recovery) while it runs off the main thread: the
/// step it is on and a progress bar.
///
/// The work goes on whatever the window does: an upgrade runs on a working copy and resumes at the
/// next start, so closing the window (``closed``) loses nothing; ``LibraryStartup`` then stops
/// waiting for the library and tells the app to quit.
@MainActor
final class UpgradeProgressWindow {
    let window: Window
    /// Called once when the writer closes the window (not when ``finish()`` closes it).
    var closed: (@MainActor () -> Void)?
    /// Every report shown, in order.
    private(set) var shown: [MigrationProgress] = []

    private let heading: Label
    private let explanation: Label
    private let progressBar: ProgressBar
    private let step: Label
    private var finished = false

    /// A window, not yet shown, modal over `parent`.
    init(over parent: Window?) throws {
        QuireResources.register()
        let builder = try Builder(resource: Quire.resourcePath + "recovery/upgrade-progress-window.ui")
        window = try builder.object("upgrade_window", as: Window.self)
        heading = try builder.object("upgrade_heading")
        explanation = try builder.object("upgrade_explanation")
        progressBar = try builder.object("upgrade_progress")
        step = try builder.object("upgrade_step")
        window.transientFor = parent
        window.connect(.closeRequest) { [weak self] in
            guard let self, !self.finished else { return false }
            self.finished = true
            self.closed?()
            return false
        }
    }

    /// The step's words under the bar, as the writer reads them.
    var stepText: String { step.text }

    /// How much of the bar is filled, from 0 to 1.
    var fraction: Double { progressBar.fraction }

    /// Shows how far the upgrade is, presenting the window the first time.
    func show(_ progress: MigrationProgress) {
        guard !finished else { return }
        shown.append(progress)
        step.text = progress.phase.phrase + "…"
        progressBar.fraction = min(max(progress.fractionCompleted, 0), 1)
        if !window.isVisible { window.present() }
    }

    /// Shows work whose length is not known (a recovery), presenting the window.
    func showWorking(heading text: String, explanation detail: String) {
        guard !finished else { return }
        window.title = text
        heading.text = text
        explanation.text = detail
        step.text = ""
        progressBar.pulse()
        if !window.isVisible { window.present() }
    }

    /// The work is done: closes the window without calling ``closed``.
    func finish() {
        guard !finished else { return }
        finished = true
        if window.isOpen { window.destroy() }
    }
}

extension MigrationProgress.Phase {
    /// The phase in the writer's language: the progress window's step, `quire`'s upgrade lines
    /// (ObjectGraph's `description` is English, for logs). A stage's label is the schema's own
    /// and stays English.
    public var phrase: String {
        switch self {
        case .preparing: gettext("Copying the library")
        case .migrating(let stage, let count, let label): String(cFormat: gettext("Upgrading (step %1$d of %2$d: %3$s)"), stage + 1, count, label)
        case .validating: gettext("Checking the upgraded library")
        case .committing: gettext("Switching to the upgraded library")
        case .finished: gettext("Upgrade finished")
        }
    }
}
