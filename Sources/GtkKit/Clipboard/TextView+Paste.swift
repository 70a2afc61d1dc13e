import CGtk

extension TextView {
    /// Lets `paste` take a paste first (Ctrl+V, Shift+Insert, the context menu's Paste, the
    /// `clipboard.paste` action: all emit `paste-clipboard`): when it returns true, the view
    /// pastes nothing itself; otherwise it pastes the clipboard's text as usual.
    ///
    /// ```swift
    /// view.takePastes { view.clipboard.offersTexture ? (pasteImage(), true).1 : false }
    /// ```
    @discardableResult
    public func takePastes(_ paste: @escaping @MainActor () -> Bool) -> SignalConnection {
        connect(Signal<() -> Void>("paste-clipboard")) { [weak self] in
            guard let self, paste() else { return }
            g_signal_stop_emission_by_name(self.objectPointer, "paste-clipboard")
        }
    }
}
