import GtkKit

/// Focus mode and fullscreen. Focus mode (Ctrl+Shift+F) hides the header bar, banners, sidebar,
/// list, preview and status line: only the article's text remains, centred. Fullscreen (F11)
/// asks the window manager for the whole screen. Escape leaves either.
extension MainWindow {
    func addFocusActions() -> (focus: Action, fullscreen: Action, leave: Action) {
        let focus = Action(name: "focus-mode", state: false) { [weak self] on in self?.setFocusMode(on) }
        window.add(focus, accelerators: ["<Control><Shift>f"])
        let fullscreen = Action(name: "fullscreen", state: false) { [weak self] on in self?.window.setFullscreen(on) }
        window.add(fullscreen, accelerators: ["F11"])
        let leave = window.addAction("leave-focus", accelerators: ["Escape"]) { [weak self] in self?.leaveFocus() }
        // Off outside focus mode and fullscreen, so that Escape reaches the widgets (a search bar, a popover).
        leave.isEnabled = false
        window.connect(.notify("fullscreened")) { [weak self] _ in self?.fullscreenChanged() }
        return (focus, fullscreen, leave)
    }

    /// Whether focus mode is on.
    var isInFocusMode: Bool { focusActions.focus.state == true }

    func setFocusMode(_ on: Bool) {
        focusActions.focus.setState(on)
        for widget in chromeWidgets { widget.isVisible = !on }
        editor.setFocusMode(on)
        if on {
            if leaflet.isFolded { leaflet.showChild(editorStack) }
            editor.focusBody()
        }
        updateLeaveAction()
    }

    /// Everything focus mode hides in the window (the editor hides its own).
    private var chromeWidgets: [Widget] { [headerBar, bannerSlot, sidebarPane, sidebarSeparator, listPane, listSeparator] }

    private func fullscreenChanged() {
        focusActions.fullscreen.setState(window.isFullscreen)
        updateLeaveAction()
    }

    private func updateLeaveAction() {
        focusActions.leave.isEnabled = isInFocusMode || window.isFullscreen
    }

    /// Escape: out of focus mode, then out of fullscreen.
    func leaveFocus() {
        if isInFocusMode {
            setFocusMode(false)
        } else if window.isFullscreen {
            window.setFullscreen(false)
        }
    }
}
