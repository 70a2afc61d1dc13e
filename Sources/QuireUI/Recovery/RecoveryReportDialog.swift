import Foundation
import GtkKit
import Library
import Platform

/// Tells the writer what the recovery of a damaged library saved: how many articles (and drafts,
/// outbox operations and conflicts), what could not be read, where the damaged file is kept
/// (the quarantine folder, which Quire never empties), and the recovered articles' titles.
@MainActor
final class RecoveryReportDialog {
    let report: LibraryRecovery.Report
    let window: Window
    private var answered = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var retainedUntilAnswered: RecoveryReportDialog?

    /// The dialog for `report`, modal over `parent`.
    init(_ report: LibraryRecovery.Report, over parent: Window?) throws {
        QuireResources.register()
        self.report = report
        let builder = try Builder(resource: Quire.resourcePath + "recovery/recovery-report-dialog.ui")
        let dialog = try builder.object("report_dialog", as: MessageDialog.self)
        window = dialog
        window.transientFor = parent
        dialog.body = report.summary.translated
        try builder.object("report_quarantine", as: Label.self).text = report.quarantine.path
        let count = report.articleTitles.count
        try builder.object("report_articles_heading", as: Label.self).text =
            String(cFormat: ngettext("%d article in the recovered library", "%d articles in the recovered library", count), count)
        try builder.object("report_articles", as: Label.self).text =
            report.articleTitles.map(ConflictDialog.displayTitle).joined(separator: "\n")
        let quarantine = report.quarantine
        window.connect(.response) { [weak self] response in
            if response == "show-folder" { Self.showFolder(quarantine) }
            self?.finish()
        }
        window.onDestroyed { [weak self] in
            guard let self else { return }
            Task { @MainActor in self.finish() }
        }
    }

    /// Shows the dialog; it stays alive until the writer closes it.
    func present() {
        retainedUntilAnswered = self
        window.present()
    }

    /// Waits until the writer has read it.
    func awaitClose() async {
        if answered { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func finish() {
        guard !answered else { return }
        answered = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
        retainedUntilAnswered = nil
    }

    /// Opens the folder in the file manager. A desktop without one leaves the path in the dialog,
    /// where the writer can copy it.
    private static func showFolder(_ folder: URL) {
        do {
            try AppInfo.launchDefault(forURI: folder.absoluteString)
        } catch {
            FileHandle.standardError.write(Data("quire: cannot show \(folder.path): \(error.message)\n".utf8))
        }
    }
}
