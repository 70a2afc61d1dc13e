import GtkKit
import Foundation

/// The Quire application: one instance per session (a second `quire` activates the first), the
/// main window, and the `app.about` and `app.quit` actions.
///
/// With a screenshot path, the application renders the main window to a PNG after its first
/// frame and quits: the `QUIRE_SCREENSHOT=out.png quire` check of what a person sees.
@MainActor
public final class QuireApplication {
    /// The GTK application, id ``Quire/applicationID``.
    public let application: Application
    /// The main window once the application has been activated.
    public private(set) var mainWindow: MainWindow?
    private let settings: Settings?
    private let screenshotPath: String?
    private var failure: Int32 = 0

    /// A new application. `settings` nil means no GSettings schema is installed: the window
    /// opens at its built-in size and its state is not saved. `flags` adds
    /// ``Application/Flags/nonUnique`` for tests.
    public init(settings: Settings?, screenshotPath: String? = nil, flags: Application.Flags = []) {
        QuireResources.register()
        application = Application(id: Quire.applicationID, flags: flags)
        self.settings = settings
        self.screenshotPath = screenshotPath
        application.connect(.startup) { [weak self] in self?.startUp() }
        application.connect(.activate) { [weak self] in self?.activate() }
        application.connect(.windowRemoved) { [weak self] window in
            if window == self?.mainWindow.map({ UnsafeMutableRawPointer($0.window.objectPointer) }) {
                self?.mainWindow = nil
            }
        }
    }

    /// Runs until the last window closes and returns the exit status: GApplication's, or 1 if
    /// the window or the screenshot could not be made.
    public func run(arguments: [String]) -> Int32 {
        let status = application.run(arguments: arguments)
        return status != 0 ? status : failure
    }

    private func startUp() {
        if settings == nil {
            printError("the GSettings schema \(Quire.settingsSchemaID) is not installed; the window size will not be remembered")
        }
        application.addAction("about") { [weak self] in self?.showAbout() }
        application.addAction("quit", accelerators: ["<Control>q"]) { [weak self] in self?.closeAllWindows() }
        // GtkWindow's own action; listed in the shortcuts window.
        application.setAccelerators(["<Control>w"], forDetailedAction: "window.close")
    }

    private func activate() {
        if let mainWindow {
            mainWindow.present()
            return
        }
        do {
            let mainWindow = try MainWindow(application: application, settings: settings)
            self.mainWindow = mainWindow
            mainWindow.present()
            if let screenshotPath { takeScreenshot(of: mainWindow.window, to: screenshotPath) }
        } catch {
            fail("cannot open the main window: \(error)")
        }
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

    private func takeScreenshot(of window: Window, to path: String) {
        window.afterNextFrame { [weak self] in
            do {
                try window.renderTexture().savePNG(to: path)
                self?.closeAllWindows()
            } catch {
                self?.fail("cannot take the screenshot: \(error)")
            }
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
