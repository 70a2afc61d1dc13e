import GtkKit

/// Focus mode and fullscreen, and moving between the panes. Focus mode (Ctrl+Shift+F) hides the
/// header bar, banners, sidebar, list, preview and status line: only the article's text remains,
/// centred. Fullscreen (F11) asks the window manager for the whole screen. Escape leaves either.
/// F6 and Shift+F6 move the keyboard focus to the next or previous pane (sidebar, list, editor),
/// as in GNOME's apps: Tab cannot leave the article's text, where it indents.
extension MainWindow {
    func addPaneActions() {
        window.addAction("focus-next-pane", accelerators: ["F6"]) { [weak self] in self?.focusPane(after: 1) }
        window.addAction("focus-previous-pane", accelerators: ["<Shift>F6"]) { [weak self] in self?.focusPane(after: -1) }
    }

    /// The panes F6 visits, in the order they stand in the window.
    private var panes: [Widget] { [sidebarPane, listPane, editorStack] }

    /// Focuses the pane `step` panes from the one with the focus (the first without one),
    /// skipping hidden panes; a folded window shows the pane it moves to.
    func focusPane(after step: Int) {
        let current = window.focusedWidget.flatMap { focus in panes.firstIndex { focus.isInside($0) } }
        let count = panes.count
        var index = current.map { $0 + step } ?? (step > 0 ? 0 : count - 1)
        for _ in 0..<count {
            let pane = panes[(index % count + count) % count]
            if pane.isVisible {
                if leaflet.isFolded { leaflet.showChild(pane) }
                if pane === editorStack && session != nil {
                    editor.focusBody()
                    return
                }
                // The list pane's first child is the (hidden) search bar: into the list itself.
                if pane === listPane && articleList.listView.widget.isVisible && articleList.listView.widget.grabFocus() { return }
                // A folded leaflet has already moved the focus into the pane it shows (its selected
                // row in the sidebar). Tab on from there would focus the next row, and a sidebar
                // row the focus enters is selected (GtkListBox in browse mode), which chose
                // another place and showed the list (issue 18).
                if window.focusedWidget?.isInside(pane) == true { return }
                if pane.focusFirstChild() { return }
            }
            index += step
        }
    }

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
