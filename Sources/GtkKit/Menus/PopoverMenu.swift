import CGtk

/// A `GtkPopoverMenu`: a menu model shown in a popover, such as a context menu opened where the
/// writer right-clicked (``Widget/onSecondaryClick(atPoint:)``).
///
/// ```swift
/// let menu = PopoverMenu(menu: rowMenu)
/// menu.attach(to: row)
/// row.onSecondaryClick(atPoint: { x, y in menu.point(atX: x, y: y); menu.popup() })
/// ```
@MainActor
public final class PopoverMenu: Popover {
    public override class var gType: GType { gtk_popover_menu_get_type() }

    /// A popover showing `menu`'s items (their actions are looked up from the widget it is
    /// attached to).
    public convenience init(menu: MenuModel) {
        self.init(owning: gtk_popover_menu_new_from_model(menu.pointer(as: GMenuModel.self)))
    }

    /// The items it shows.
    public var menuModel: MenuModel? {
        get { gtk_popover_menu_get_menu_model(opaquePointer).map { MenuModel(retaining: $0) } }
        set { gtk_popover_menu_set_menu_model(opaquePointer, newValue?.pointer(as: GMenuModel.self)) }
    }

    /// Makes it a child of `widget`, which it points at and which keeps it (until the widget is
    /// gone, or ``detach()``). A popover must be attached before it opens.
    public func attach(to widget: Widget) {
        gtk_widget_set_parent(widgetPointer, widget.widgetPointer)
    }

    /// Takes it off the widget it was attached to.
    public func detach() {
        gtk_widget_unparent(widgetPointer)
    }

    /// Points it at a point of the widget it is attached to (that widget's coordinates).
    public func point(atX x: Double, y: Double) {
        var rectangle = GdkRectangle(x: Int32(x.rounded(.down)), y: Int32(y.rounded(.down)), width: 1, height: 1)
        gtk_popover_set_pointing_to(pointer(as: GtkPopover.self), &rectangle)
    }
}
