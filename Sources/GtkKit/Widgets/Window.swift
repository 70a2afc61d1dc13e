import CGtk

/// A `GtkWindow`.
///
/// GTK keeps every toplevel window alive until it is destroyed, whatever the wrappers do:
/// ``close()`` asks (a `close-request` handler may refuse), ``destroy()`` removes it.
@MainActor
open class Window: Widget {
    open override class var gType: GType { gtk_window_get_type() }

    /// A new, empty toplevel window. It stays open until ``destroy()``.
    public convenience init() {
        // gtk_window_new returns a reference owned by GTK's list of toplevels.
        self.init(retaining: gtk_window_new())
    }

    /// The instance as a `GtkWindow *`.
    public var windowPointer: UnsafeMutablePointer<GtkWindow> { pointer(as: GtkWindow.self) }

    /// The title, shown by the window manager and by title widgets that follow it.
    public var title: String? {
        get { gtk_window_get_title(windowPointer).map { String(cString: $0) } }
        set { gtk_window_set_title(windowPointer, newValue) }
    }

    /// The size the window opens with, and its size while neither maximized nor fullscreen.
    public var defaultSize: (width: Int, height: Int) {
        get {
            var width: gint = 0
            var height: gint = 0
            gtk_window_get_default_size(windowPointer, &width, &height)
            return (Int(width), Int(height))
        }
        set { gtk_window_set_default_size(windowPointer, gint(newValue.width), gint(newValue.height)) }
    }

    /// Whether the window manager has maximized the window.
    public var isMaximized: Bool { gtk_window_is_maximized(windowPointer) != 0 }

    /// Asks the window manager to maximize the window (before or after it is shown).
    public func maximize() { gtk_window_maximize(windowPointer) }

    /// Whether the window is fullscreen. Changes notify `fullscreened`.
    public var isFullscreen: Bool { gtk_window_is_fullscreen(windowPointer) != 0 }

    /// Asks the window manager to show the window fullscreen, or no longer (`false`).
    public func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { gtk_window_fullscreen(windowPointer) } else { gtk_window_unfullscreen(windowPointer) }
    }

    /// The window this one is a dialog of, kept above it and centred on it.
    public var transientFor: Window? {
        get { gtk_window_get_transient_for(windowPointer).map { Window(retaining: $0) } }
        set {
            gtk_window_set_transient_for(windowPointer, newValue?.windowPointer)
            guard newValue != nil else { return }
            // GTK 4.8 keeps a destroyed dialog's link to its parent; if the parent is freed
            // first, freeing the dialog later touches it. Unlink while both are alive.
            let dialog = WeakObjectReference(objectPointer)
            onDestroyed {
                dialog.withObject { object in
                    gtk_window_set_transient_for(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self), nil)
                }
            }
        }
    }

    /// The widget with the keyboard focus in this window, if any.
    public var focusedWidget: Widget? {
        gtk_root_get_focus(opaquePointer).map { Widget(retaining: $0) }
    }

    /// What the window shows under its title bar.
    public var child: Widget? {
        get { gtk_window_get_child(windowPointer).map { Widget(retaining: $0) } }
        set { gtk_window_set_child(windowPointer, newValue?.widgetPointer) }
    }

    /// Shows the window and brings it to the front. Its buttons with a mnemonic are named once
    /// for a screen reader first (``Widget/nameMnemonicButtons()``): GTK 4.8 names them twice.
    open func present() {
        nameMnemonicButtons()
        gtk_window_present(windowPointer)
    }

    /// Asks the window to close, as its close button does: emits `close-request`, whose
    /// handlers may keep it open, then destroys it.
    public func close() { gtk_window_close(windowPointer) }

    /// Removes the window at once, without `close-request`: it disappears and leaves its
    /// application, and is freed when no wrapper holds it any more.
    public func destroy() { gtk_window_destroy(windowPointer) }

    /// Whether the window is open: created and not yet destroyed.
    public var isOpen: Bool { Window.toplevelPointers.contains(objectPointer) }

    /// Every open toplevel window of the process, dialogs included.
    public static var toplevels: [Window] {
        toplevelPointers.map { Window(retaining: $0) }
    }

    /// Keeps `owner` alive while the window is open and releases it when the window is
    /// destroyed: for the Swift object that drives a window and that nothing else holds.
    /// Handlers the owner connects should still capture it weakly.
    public func keepAlive(_ owner: AnyObject) {
        onDestroyed { withExtendedLifetime(owner) {} }
    }

    /// Calls `body` once when the open window is destroyed (closed, or ``destroy()``), and
    /// releases it then.
    public func onDestroyed(_ body: @escaping @MainActor () -> Void) {
        // gtk_window_destroy does not dispose a window others still reference (a Swift owner
        // usually holds its wrapper), so neither `destroy` nor the release of the window's own
        // handlers can be relied on. GTK's list of toplevels tells when the window is gone.
        let window = WeakObjectReference(objectPointer)
        let list = Object(retaining: gtk_window_get_toplevels())
        let pending = OneShot()
        pending.connection = list.connect(Signal<(UInt32, UInt32, UInt32) -> Void>("items-changed")) { _, removed, _ in
            guard removed > 0, window.withObject(Window.toplevelPointers.contains) != true else { return }
            // GLib releases the closure, and what it holds, after this call returns.
            pending.connection?.disconnect()
            pending.connection = nil
            body()
        }
    }

    /// The open toplevel windows, as instance pointers.
    static var toplevelPointers: [UnsafeMutablePointer<GObject>] {
        let model = gtk_window_get_toplevels()
        return (0..<g_list_model_get_n_items(model)).compactMap { index in
            guard let item = g_list_model_get_item(model, index) else { return nil }
            g_object_unref(item)  // the list keeps its own reference
            return item.assumingMemoryBound(to: GObject.self)
        }
    }
}

extension Widget {
    /// The window the widget is in, or nil while it is in none (a dialog's parent, say).
    public var enclosingWindow: Window? {
        gtk_widget_get_ancestor(widgetPointer, gtk_window_get_type()).map { Window(retaining: UnsafeMutableRawPointer($0)) }
    }
}
