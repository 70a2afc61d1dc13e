import CGtk
import GtkShim

/// Connecting Swift closures to signals.
///
/// Each overload pairs a handler type with a C trampoline of the matching shape. The closure is
/// boxed and retained by the connection; GLib releases it when the handler is disconnected or
/// the instance is disposed. Handlers run on the main actor (GTK emits on the main thread) and
/// should capture their owner weakly (`[weak self]`), or keep the connection in the owner's
/// ``SignalConnections``.
///
/// Pass `after: true` to run after the class's default handler (`G_CONNECT_AFTER`).
extension Object {
    /// Connects a handler without arguments.
    @discardableResult
    public func connect(
        _ signal: Signal<() -> Void>, after: Bool = false, _ handler: @escaping @MainActor () -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
            let handler = SignalHandlerBox<@MainActor () -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler() }
        }
        return connect(signal.name, after: after, SignalSignature(), handler, trampoline)
    }

    /// Connects a handler that returns the signal's `gboolean`.
    @discardableResult
    public func connect(
        _ signal: Signal<() -> Bool>, after: Bool = false, _ handler: @escaping @MainActor () -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
            let handler = SignalHandlerBox<@MainActor () -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler() } ? 1 : 0
        }
        return connect(signal.name, after: after, SignalSignature(returns: .boolean), handler, trampoline)
    }

    /// Connects a handler of one `guint`, such as `GtkListView::activate(position)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UInt32) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (UInt32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, guint, gpointer?) -> Void = { _, value, data in
            let handler = SignalHandlerBox<@MainActor (UInt32) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(value) }
        }
        return connect(signal.name, after: after, SignalSignature(.uint), handler, trampoline)
    }

    /// Connects a handler of one `gint`, such as `GtkNativeDialog::response(response_id)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Int32) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (Int32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gint, gpointer?) -> Void = { _, value, data in
            let handler = SignalHandlerBox<@MainActor (Int32) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(value) }
        }
        return connect(signal.name, after: after, SignalSignature(.int), handler, trampoline)
    }

    /// Connects a handler of two `guint`s, such as
    /// `GtkSelectionModel::selection-changed(position, n_items)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UInt32, UInt32) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (UInt32, UInt32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, guint, guint, gpointer?) -> Void = { _, first, second, data in
            let handler = SignalHandlerBox<@MainActor (UInt32, UInt32) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(first, second) }
        }
        return connect(signal.name, after: after, SignalSignature(.uint, .uint), handler, trampoline)
    }

    /// Connects a handler of two `gint`s, such as `GtkDrawingArea::resize(width, height)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Int32, Int32) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (Int32, Int32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gint, gint, gpointer?) -> Void = { _, first, second, data in
            let handler = SignalHandlerBox<@MainActor (Int32, Int32) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(first, second) }
        }
        return connect(signal.name, after: after, SignalSignature(.int, .int), handler, trampoline)
    }

    /// Connects a handler of three `guint`s, such as `GListModel::items-changed(position, removed, added)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UInt32, UInt32, UInt32) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (UInt32, UInt32, UInt32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, guint, guint, guint, gpointer?) -> Void = { _, first, second, third, data in
            let handler = SignalHandlerBox<@MainActor (UInt32, UInt32, UInt32) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(first, second, third) }
        }
        return connect(signal.name, after: after, SignalSignature(.uint, .uint, .uint), handler, trampoline)
    }

    /// Connects a handler of one `double`, such as `GtkGestureZoom::scale-changed(scale)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Double) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (Double) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, Double, gpointer?) -> Void = { _, value, data in
            let handler = SignalHandlerBox<@MainActor (Double) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(value) }
        }
        return connect(signal.name, after: after, SignalSignature(.double), handler, trampoline)
    }

    /// Connects a handler of two `double`s, such as `GtkEventControllerMotion::motion(x, y)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Double, Double) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (Double, Double) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
            let handler = SignalHandlerBox<@MainActor (Double, Double) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(x, y) }
        }
        return connect(signal.name, after: after, SignalSignature(.double, .double), handler, trampoline)
    }

    /// Connects a handler of two `double`s that returns the signal's `gboolean`, such as
    /// `GtkEventControllerScroll::scroll(dx, dy)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Double, Double) -> Bool>, after: Bool = false,
        _ handler: @escaping @MainActor (Double, Double) -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gboolean = { _, x, y, data in
            let handler = SignalHandlerBox<@MainActor (Double, Double) -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler(x, y) } ? 1 : 0
        }
        return connect(signal.name, after: after, SignalSignature(returns: .boolean, .double, .double), handler, trampoline)
    }

    /// Connects a handler of two `double`s that returns an object with a reference for the
    /// caller (`transfer full`), or nil: `GtkDragSource::prepare(x, y)`, which asks for the
    /// drag's `GdkContentProvider`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Double, Double) -> UnsafeMutableRawPointer?>, after: Bool = false,
        _ handler: @escaping @MainActor (Double, Double) -> UnsafeMutableRawPointer?
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> gpointer? = { _, x, y, data in
            let handler = SignalHandlerBox<@MainActor (Double, Double) -> UnsafeMutableRawPointer?>.handler(from: data)
            // A pointer is not Sendable; its address is.
            let address = MainActor.assumeIsolated { UInt(bitPattern: handler(x, y)) }
            return UnsafeMutableRawPointer(bitPattern: address)
        }
        return connect(signal.name, after: after, SignalSignature(returns: .pointer, .double, .double), handler, trampoline)
    }

    /// Connects a handler of a pointer (borrowed for the call) and two `double`s that returns
    /// the signal's `gboolean`: `GtkDropTarget::drop(value, x, y)`, with the dropped `GValue`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UnsafeMutableRawPointer?, Double, Double) -> Bool>, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Double, Double) -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, Double, Double, gpointer?) -> gboolean = {
            _, argument, x, y, data in
            let handler = SignalHandlerBox<@MainActor (UnsafeMutableRawPointer?, Double, Double) -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler(argument, x, y) } ? 1 : 0
        }
        return connect(
            signal.name, after: after, SignalSignature(returns: .boolean, .pointer, .double, .double), handler, trampoline)
    }

    /// Connects a handler of a pointer (borrowed for the call) and an enum or `gint` that returns
    /// the signal's `gboolean`, such as `WebKitWebView::decide-policy(decision, type)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UnsafeMutableRawPointer?, Int32) -> Bool>, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, Int32) -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, gint, gpointer?) -> gboolean = { _, argument, value, data in
            let handler = SignalHandlerBox<@MainActor (UnsafeMutableRawPointer?, Int32) -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler(argument, value) } ? 1 : 0
        }
        return connect(signal.name, after: after, SignalSignature(returns: .boolean, .pointer, .int), handler, trampoline)
    }

    /// Connects a handler of two `gint`s, a `gboolean` and a pointer (borrowed for the call) that
    /// returns the signal's `gboolean`: `GtkWidget::query-tooltip(x, y, keyboard_mode, tooltip)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Int32, Int32, Bool, UnsafeMutableRawPointer?) -> Bool>, after: Bool = false,
        _ handler: @escaping @MainActor (Int32, Int32, Bool, UnsafeMutableRawPointer?) -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gint, gint, gboolean, gpointer?, gpointer?) -> gboolean = {
            _, x, y, keyboardMode, argument, data in
            let handler = SignalHandlerBox<@MainActor (Int32, Int32, Bool, UnsafeMutableRawPointer?) -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler(x, y, keyboardMode != 0, argument) } ? 1 : 0
        }
        return connect(
            signal.name, after: after, SignalSignature(returns: .boolean, .int, .int, .boolean, .pointer), handler, trampoline)
    }

    /// Connects a handler of a `gint` and two `double`s, such as
    /// `GtkGestureClick::pressed(n_press, x, y)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(Int32, Double, Double) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (Int32, Double, Double) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gint, Double, Double, gpointer?) -> Void = { _, count, x, y, data in
            let handler = SignalHandlerBox<@MainActor (Int32, Double, Double) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(count, x, y) }
        }
        return connect(signal.name, after: after, SignalSignature(.int, .double, .double), handler, trampoline)
    }

    /// Connects a key handler, `GtkEventControllerKey::key-pressed(keyval, keycode, state)`;
    /// return true when the key was handled.
    @discardableResult
    public func connect(
        _ signal: Signal<(UInt32, UInt32, GdkModifierType) -> Bool>, after: Bool = false,
        _ handler: @escaping @MainActor (UInt32, UInt32, GdkModifierType) -> Bool
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
            _, keyval, keycode, state, data in
            let handler = SignalHandlerBox<@MainActor (UInt32, UInt32, GdkModifierType) -> Bool>.handler(from: data)
            return MainActor.assumeIsolated { handler(keyval, keycode, state) } ? 1 : 0
        }
        return connect(signal.name, after: after, SignalSignature(returns: .boolean, .uint, .uint, .flags), handler, trampoline)
    }

    /// Connects a handler of one string, such as `AdwMessageDialog::response(response)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(String) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (String) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, text, data in
            let handler = SignalHandlerBox<@MainActor (String) -> Void>.handler(from: data)
            let string = text.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { handler(string) }
        }
        return connect(signal.name, after: after, SignalSignature(.string), handler, trampoline)
    }

    /// Connects a handler of a pointer, a text and its length in bytes, such as
    /// `GtkTextBuffer::insert-text(location, text, len)`. The text is read by its length (it need
    /// not end in NUL); the pointer is borrowed for the call.
    @discardableResult
    public func connect(
        _ signal: Signal<(UnsafeMutableRawPointer?, String, Int32) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, String, Int32) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, UnsafePointer<CChar>?, gint, gpointer?) -> Void = {
            _, argument, text, length, data in
            let handler = SignalHandlerBox<@MainActor (UnsafeMutableRawPointer?, String, Int32) -> Void>.handler(from: data)
            let string = text.map { text in
                length < 0
                    ? String(cString: text)
                    : text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
                    }
            } ?? ""
            MainActor.assumeIsolated { handler(argument, string, length) }
        }
        return connect(signal.name, after: after, SignalSignature(.pointer, .string, .int), handler, trampoline)
    }

    /// Connects a handler of one pointer argument (an object, boxed value, `GVariant` or
    /// `GParamSpec`), borrowed for the duration of the call.
    @discardableResult
    public func connect(
        _ signal: Signal<(UnsafeMutableRawPointer?) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = { _, argument, data in
            let handler = SignalHandlerBox<@MainActor (UnsafeMutableRawPointer?) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(argument) }
        }
        return connect(signal.name, after: after, SignalSignature(.pointer), handler, trampoline)
    }

    /// Connects a handler of two pointer arguments, borrowed for the duration of the call, such
    /// as `GtkTextBuffer::delete-range(start, end)`.
    @discardableResult
    public func connect(
        _ signal: Signal<(UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void>, after: Bool = false,
        _ handler: @escaping @MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
    ) -> SignalConnection {
        let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, first, second, data in
            let handler = SignalHandlerBox<@MainActor (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void>.handler(from: data)
            MainActor.assumeIsolated { handler(first, second) }
        }
        return connect(signal.name, after: after, SignalSignature(.pointer, .pointer), handler, trampoline)
    }

    /// Connects a handler of one object argument, wrapped as `Argument` (borrowed for the call,
    /// with a reference of the wrapper's own), such as `GtkListBox::row-selected(row)`.
    @discardableResult
    public func connect<Argument: Object>(
        _ signal: Signal<(Argument?) -> Void>, after: Bool = false, _ handler: @escaping @MainActor (Argument?) -> Void
    ) -> SignalConnection {
        connect(Signal<(UnsafeMutableRawPointer?) -> Void>(signal.name), after: after) { argument in
            handler(argument.map { Argument(retaining: $0) })
        }
    }

    /// Boxes `handler`, checks the signal's signature against the trampoline's and connects.
    private func connect<Handler, Trampoline>(
        _ name: String, after: Bool, _ signature: SignalSignature, _ handler: Handler, _ trampoline: Trampoline
    ) -> SignalConnection {
        checkSignal(name, matches: signature)
        let box = Unmanaged.passRetained(SignalHandlerBox(handler)).toOpaque()
        let handlerID = gtkshim_signal_connect(
            objectPointer, name, unsafeBitCast(trampoline, to: UnsafeRawPointer.self), box,
            releaseSignalHandlerBox, after ? 1 : 0)
        precondition(handlerID != 0, "\(typeName): connecting '\(name)' failed")
        return SignalConnection(instance: objectPointer, handlerID: UInt(handlerID))
    }

    /// Stops the program on a misspelt signal or a handler of the wrong shape: both are
    /// programming errors, and the second would otherwise corrupt memory when the signal fires.
    private func checkSignal(_ name: String, matches expected: SignalSignature) {
        var signalID: guint = 0
        var detail: GQuark = 0
        guard g_signal_parse_name(name, gtkshim_instance_type(objectPointer), &signalID, &detail, 1) != 0 else {
            preconditionFailure("\(typeName) has no signal '\(name)'")
        }
        var query = GSignalQuery()
        g_signal_query(signalID, &query)
        let actual = SignalSignature(query: query)
        precondition(
            actual == expected,
            "\(typeName)::\(name) has the signature \(actual.map(String.init(describing:)) ?? "unsupported"), "
                + "not \(expected)")
    }
}
