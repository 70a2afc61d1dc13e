import GtkKit

extension ActionGroup {
    /// The actions every transfer dialog has: `cancel` stops what runs, `close` (Escape) closes
    /// `window`, and closing the window stops what runs too.
    func addCancelAndClose(for window: Window, cancelRunning: @escaping @MainActor () -> Void) {
        addAction("cancel", cancelRunning)
        addAction("close", accelerators: ["Escape"]) { [weak window] in window?.close() }
        window.connect(.closeRequest) {
            cancelRunning()
            return false
        }
    }
}
