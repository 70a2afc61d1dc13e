import GtkKit
import Library
import Platform

/// The window's other dialogs: recovered drafts at start, preferences, export and import.
extension MainWindow {
    /// Offers back, one dialog at a time, the text of articles that were not saved when Quire
    /// last stopped: restore or discard each. A read-only library keeps them for a later start.
    public func offerRecoveredDrafts() async {
        guard readOnlyReason == nil else { return }
        let drafts: [RecoveredDraft]
        do {
            drafts = try await library.unrecoveredDrafts()
        } catch {
            showError(gettext("Could not look for unsaved text"), error)
            return
        }
        for draft in drafts {
            do {
                let dialog = try RecoveredDraftDialog(draft: draft, over: window)
                switch await dialog.decision() {
                case .restore:
                    if session?.articleID == draft.articleID { closeArticle() }
                    try await library.restoreDraft(for: draft.articleID)
                case .discard:
                    try await library.discardDraft(for: draft.articleID)
                case .later:
                    break
                }
            } catch {
                showError(String(cFormat: gettext("Could not recover the text of “%s”"), ConflictDialog.displayTitle(draft.title)), error)
            }
        }
    }

    /// Preferences: the Editor page first, then Sync.
    func showPreferences() {
        do {
            let preferencesWindow = try SyncPreferencesWindow(session: sync, over: window)
            let editorPage = try EditorPreferencesPage(preferences: preferences)
            preferencesWindow.window.add(editorPage.page)
            preferencesWindow.window.visiblePage = editorPage.page
            // The page's handlers hold it weakly; the window keeps it while open.
            preferencesWindow.window.keepAlive(editorPage)
            shownEditorPreferences = editorPage
            preferencesWindow.window.present()
        } catch {
            showError(gettext("Could not open the preferences"), error)
        }
    }

    /// Opens the export dialog; the open article is offered as the selection.
    func showExport() {
        session?.save()
        let selection = session.map { [$0.articleID] } ?? []
        Task { @MainActor [weak self] in
            guard let self else { return }
            do {
                try await ExportDialog.present(library: library, over: window, toastOverlay: toastOverlay, selection: selection, sync: sync)
            } catch {
                showError(gettext("Could not open the export dialog"), error)
            }
        }
    }

    func showImport() {
        do {
            try ImportDialog.present(library: library, over: window, toastOverlay: toastOverlay)
        } catch {
            showError(gettext("Could not open the import dialog"), error)
        }
    }
}
