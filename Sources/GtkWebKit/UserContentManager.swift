import CGtk
import CWebKit
import GtkKit

/// A `WebKitUserContentManager`: the app's scripts in a ``WebView``'s pages, and the messages
/// they send back.
///
/// Everything runs in one named script world: the page's own scripts (which a ``WebView`` does
/// not run anyway) could neither see the app's functions nor post its messages.
///
/// ```swift
/// let content = UserContentManager(world: "quire")
/// content.addScript("function top() { return scrollY }")
/// content.onMessage("scrolled") { json in print(json) }  // window.webkit.messageHandlers.scrolled.postMessage(3)
/// ```
@MainActor
public final class UserContentManager: Object {
    public override class var gType: GType { webkit_user_content_manager_get_type() }

    /// The script world of the app's scripts.
    public private(set) var world: String = ""

    var managerPointer: OpaquePointer { opaquePointer }
    private let connections = SignalConnections()

    /// A new manager whose scripts run in the world named `world`.
    public convenience init(world: String) {
        JavaScriptCoreSignal.choose()
        self.init(owning: UnsafeMutableRawPointer(webkit_user_content_manager_new()))
        self.world = world
    }

    /// Runs `source` in every page once its document has loaded (before its images have).
    public func addScript(_ source: String) {
        let script = webkit_user_script_new_for_world(
            source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_END, world, nil, nil)
        defer { webkit_user_script_unref(script) }
        webkit_user_content_manager_add_script(managerPointer, script)
    }

    /// Calls `handler` with the JSON of each value the app's scripts post with
    /// `window.webkit.messageHandlers.NAME.postMessage(value)`.
    public func onMessage(_ name: String, _ handler: @escaping @MainActor (String) -> Void) {
        connect(Signal<(UnsafeMutableRawPointer?) -> Void>("script-message-received::\(name)")) { value in
            guard let value else { return handler("") }
            let json = jsc_value_to_json(OpaquePointer(value), 0)
            defer { g_free(json) }
            handler(json.map { String(cString: $0) } ?? "")
        }.store(in: connections)
        webkit_user_content_manager_register_script_message_handler(managerPointer, name, world)
    }
}
