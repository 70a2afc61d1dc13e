import Foundation
import GtkKit
import Library
import SyncClient

/// The Quire application: one instance per session (a second `quire` activates the first), the
/// library it opens, the main window, and the `app.about` and `app.quit` actions.
///
/// On activation the library at ``libraryURL`` is opened through ``LibraryStartup`` (created when
/// missing, upgraded off the main thread with a progress window when older, recovered or opened
/// read-only with the writer's consent), then the main window shows it, starts syncing when the
/// writer signed in earlier, and offers back text that a crash kept from being saved.
///
/// With a screenshot path, the application renders the main window to a PNG after its first
/// frame and quits: the `QUIRE_SCREENSHOT=out.png quire` check of what a person sees. With
/// `reportsFirstRows`, it starts as always (sync, recovered drafts) and prints `first-rows` on
/// standard output once the article list's first screen of rows is drawn, then quits (what
/// `quire-bench app-start` times); with `reportsStalls`, it measures the
/// main thread's longest stall (``MainThreadStallMonitor``) and prints it when it quits; with
/// `reportsPreview`, it prints how long each preview rendering took to appear; with
/// `reportsFeltSpeed`, how long the window took to answer the writer (``FeltSpeed``).
@MainActor
public final class QuireApplication {
    /// The GTK application, id ``Quire/applicationID``.
    public let application: Application
    /// The main window once the application has been activated.
    public private(set) var mainWindow: MainWindow?
    /// The library's file.
    public let libraryURL: URL
    /// Called when the main window has opened over the library (tests wait for it).
    public var mainWindowOpened: (@MainActor (MainWindow) -> Void)?
    private let settings: Settings?
    private let screenshotPath: String?
    private let reportsFirstRows: Bool
    private let reportsPreview: Bool
    private let reportsFeltSpeed: Bool
    private var stallMonitor: MainThreadStallMonitor?
    /// The open library and its disk-space watch, for as long as the application runs.
    private var openedLibrary: OpenedLibrary?
    private var isOpening = false
    /// Set when the writer quits while the library is still opening: no window opens then.
    private var quitRequested = false
    private var failure: Int32 = 0

    /// A new application over the library at `libraryURL`. `settings` nil means no GSettings
    /// schema is installed: the window opens at its built-in size and its state is not saved.
    /// `flags` adds ``Application/Flags/nonUnique`` for tests.
    public init(
        libraryURL: URL, settings: Settings?, screenshotPath: String? = nil, reportsFirstRows: Bool = false,
        reportsStalls: Bool = false, reportsPreview: Bool = false, reportsFeltSpeed: Bool = false,
        flags: Application.Flags = []
    ) {
        QuireResources.register()
        application = Application(id: Quire.applicationID, flags: flags)
        self.libraryURL = libraryURL
        self.settings = settings
        self.screenshotPath = screenshotPath
        self.reportsFirstRows = reportsFirstRows
        self.reportsPreview = reportsPreview
        self.reportsFeltSpeed = reportsFeltSpeed
        application.connect(.startup) { [weak self] in self?.startUp() }
        application.connect(.activate) { [weak self] in self?.activate() }
        if reportsStalls {
            stallMonitor = MainThreadStallMonitor()
            application.connect(.shutdown) { [weak self] in
                guard let monitor = self?.stallMonitor else { return }
                monitor.stop()
                FileHandle.standardOutput.write(Data("max-stall-ms \(monitor.longestStall)\nmax-main-cpu-ms \(monitor.longestCPUBurst)\n".utf8))
            }
        }
        application.connect(.windowRemoved) { [weak self] window in
            if window == self?.mainWindow.map({ UnsafeMutableRawPointer($0.window.objectPointer) }) {
                self?.mainWindow = nil
            }
        }
    }

    /// Runs until the last window closes and returns the exit status: GApplication's, or 1 if
    /// the window or the screenshot could not be made. The library is closed on the way out (the
    /// windows saved on closing), so that its file alone holds everything once the app has quit.
    public func run(arguments: [String]) -> Int32 {
        let status = application.run(arguments: arguments)
        openedLibrary?.library.close()
        return status != 0 ? status : failure
    }

    private func startUp() {
        if settings == nil {
            printError("the GSettings schema \(Quire.settingsSchemaID) is not installed; the window size will not be remembered")
        }
        application.addAction("about") { [weak self] in self?.showAbout() }
        application.addAction("quit", accelerators: ["<Control>q"]) { [weak self] in self?.quit() }
        // GtkWindow's own action; listed in the shortcuts window.
        application.setAccelerators(["<Control>w"], forDetailedAction: "window.close")
    }

    private func activate() {
        if let mainWindow {
            mainWindow.present()
            return
        }
        guard !isOpening else { return }
        isOpening = true
        // The application would end with no window while the library opens.
        application.hold()
        Task { @MainActor in
            defer { application.release() }
            // Looking for a Secret Service asks the session bus, which may take seconds to answer:
            // it runs off the main thread while the library opens.
            let keyringProbe = Task.detached { SecretServiceKeyring.detect() }
            // The writer chose to quit, or was told why the library cannot be opened.
            // An upgrade gives articles from before languages the language Preferences gives new ones.
            var options = LibraryOpenOptions(createIfMissing: true)
            options.defaultLanguage = EditorPreferences(settings: settings).defaultLanguage
            guard let opened = await LibraryStartup.open(at: libraryURL, over: nil, options: options) else {
                failure = 1
                application.quit()
                return
            }
            openedLibrary = opened
            // While the writer leaves the app open, the library file alone stays complete.
            opened.library.checkpointWhenIdle()
            let accounts = AccountSettings(libraryURL: opened.library.url, keyring: await keyringProbe.value)
            // Quit arrived (a shortcut, or app.quit over D-Bus) before there was a window to close.
            guard !quitRequested else {
                isOpening = false
                return
            }
            do {
                let mainWindow = try MainWindow(
                    application: application, settings: settings, library: opened.library,
                    sync: SyncSession(library: opened.library, settings: accounts))
                self.mainWindow = mainWindow
                if reportsPreview { reportPreviewTimes(of: mainWindow.editor) }
                if reportsFeltSpeed {
                    let feltSpeed = FeltSpeed()
                    mainWindow.feltSpeed = feltSpeed
                    mainWindow.reportFocusAndSearches(to: feltSpeed)
                }
                opened.watchCondition(over: mainWindow.window)
                mainWindow.present()
                isOpening = false
                if let screenshotPath {
                    takeScreenshot(of: mainWindow.window, to: screenshotPath)
                } else {
                    Task { await mainWindow.startSyncing() }
                    if opened.exportRequested {
                        mainWindow.showExport()
                    } else {
                        Task { await mainWindow.offerRecoveredDrafts() }
                    }
                    if reportsFirstRows { reportFirstRows(of: mainWindow) }
                }
                mainWindowOpened?(mainWindow)
            } catch {
                fail("cannot open the window over the library \(libraryURL.path): \(error)")
            }
        }
    }

    /// `app.quit`: closes every window, and keeps the main window from opening when the library
    /// is still being opened.
    private func quit() {
        // The stall figures are about using the app: the saves made on the way out are not.
        stallMonitor?.stop()
        if isOpening { quitRequested = true }
        closeAllWindows()
    }

    /// Closes every window as its close button would, so each saves its state; the application
    /// ends when the last one is gone.
    private func closeAllWindows() {
        for window in application.windows { window.close() }
    }

    private func showAbout() {
        do {
            try AboutWindow.present(over: mainWindow?.window)
        } catch {
            printError("cannot open the About window: \(error)")
        }
    }

    /// Renders the window after its first frame. A window whose layout changed after that frame
    /// (rows of a long list arriving, the sidebar's folders) draws nothing until its next frame:
    /// then it tries again, a few frames at most.
    private func takeScreenshot(of window: Window, to path: String, attemptsLeft: Int = 10) {
        window.afterNextFrame { [weak self] in
            do {
                try window.renderTexture().savePNG(to: path)
                self?.closeAllWindows()
            } catch RenderError.nothingDrawn where attemptsLeft > 1 {
                window.queueDraw()
                self?.takeScreenshot(of: window, to: path, attemptsLeft: attemptsLeft - 1)
            } catch {
                self?.fail("cannot take the screenshot: \(error)")
            }
        }
    }

    /// Prints `first-rows` after the first frame drawn once the article list makes rows (it
    /// starts making them after the window's first frame, ``ArticleList``), or once the window
    /// shows the empty library's page instead of the list, and quits.
    private func reportFirstRows(of mainWindow: MainWindow) {
        let window = mainWindow.window
        window.afterNextFrame { [weak self] in
            let list = mainWindow.articleList.listView
            // Nothing else may ask for a frame: the next one is asked for here.
            window.queueDraw()
            guard list.makesRows || !list.widget.isMapped else {
                self?.reportFirstRows(of: mainWindow)
                return
            }
            window.afterNextFrame {
                FileHandle.standardOutput.write(Data("first-rows\n".utf8))
                self?.closeAllWindows()
            }
        }
    }

    /// Prints how long each preview rendering took to reach the screen: `open-article-ms` from
    /// choosing an article, `preview-update-ms` from the last keystroke (`quire-bench editor`).
    private func reportPreviewTimes(of editor: EditorPane) {
        editor.previewShownAfter = { milliseconds, afterLoad in
            let name = afterLoad ? "open-article-ms" : "preview-update-ms"
            FileHandle.standardOutput.write(Data("\(name) \(milliseconds)\n".utf8))
        }
    }

    private func fail(_ message: String) {
        printError(message)
        failure = 1
        closeAllWindows()
        application.quit()
    }

    private func printError(_ message: String) {
        FileHandle.standardError.write(Data("quire: \(message)\n".utf8))
    }
}
