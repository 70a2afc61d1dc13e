import CGtk
import GtkShim

/// The item a ``ListModel`` gives GTK for one row (a `GtkShimRowItem`): the row's identity
/// (read it with ``ListModel/identity(of:)``) and its current position.
@MainActor
public final class ListRowItem: Object {
    public override class var gType: GType { gtkshim_row_item_get_type() }

    private var itemPointer: OpaquePointer { opaquePointer }

    /// The row's index in the list, or nil once the row has left it. The `position` property
    /// notifies when it changes.
    public var position: Int? {
        let position = gtkshim_row_item_get_position(itemPointer)
        return position == guint.max ? nil : Int(position)
    }

    /// The payload the model stored, checked against the type the caller expects.
    func payload<Payload: AnyObject>(as type: Payload.Type) -> Payload {
        guard let data = gtkshim_row_item_get_identity(itemPointer),
            let payload = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as? Payload
        else { preconditionFailure("the row item belongs to a list model of another source type") }
        return payload
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkShimRowItem::updated`: the row's data changed while it stayed in the list.
    static var rowUpdated: Self { Self("updated") }
}
