import CGtk

/// An `AdwLeaflet`: panes side by side that fold into one at a time on a narrow window (the
/// sidebar, the list and the editor).
@MainActor
open class Leaflet: Widget {
    open override class var gType: GType { adw_leaflet_get_type() }

    /// Whether the leaflet shows one pane at a time. Changes notify `folded`.
    public var isFolded: Bool { adw_leaflet_get_folded(opaquePointer) != 0 }

    /// Called with ``isFolded`` when the leaflet folds or unfolds, just after the allocation in
    /// which it did, so the handler may show and hide widgets. The leaflet folds while the window
    /// lays it out, and a widget shown or hidden there (a back button in the header bar above)
    /// asks for a layout GTK 4.8 loses for that frame: "Trying to snapshot AdwHeaderBar without a
    /// current allocation", as ``WidthWatch`` explains.
    public var foldChanged: (@MainActor (Bool) -> Void)? {
        didSet {
            guard foldWatch == nil else { return }
            foldWatch = connect(.notify("folded")) { [weak self] _ in
                self?.foldReport = Timeout(milliseconds: 0, priority: .high) { [weak self] in
                    guard let self else { return }
                    foldChanged?(isFolded)
                }
            }
        }
    }

    private var foldWatch: SignalConnection?
    private var foldReport: Timeout?

    /// Shows `child` (one of the leaflet's panes) when folded: at once, or once it folds.
    public func showChild(_ child: Widget) {
        adw_leaflet_set_visible_child(opaquePointer, child.widgetPointer)
    }

    /// Goes back to the pane before the one shown, as a back button or swipe would. Returns
    /// false when there is none.
    @discardableResult
    public func navigateBack() -> Bool {
        adw_leaflet_navigate(opaquePointer, ADW_NAVIGATION_DIRECTION_BACK) != 0
    }
}
