import CGtk

/// An `AdwMessageDialog`: a heading, a body, an optional extra widget (such as details in an
/// ``Expander``) and a row of responses, modal over its window. Every way of closing it ends in
/// one ``Signal/response`` with the response's id (``closeResponse`` for Escape and the close
/// button), and it closes itself after a response.
///
/// ```swift
/// let dialog = MessageDialog(heading: "Replace “notes.md”?", body: "A file with this name exists.", over: window)
/// dialog.addResponse("cancel", label: "_Cancel")
/// dialog.addResponse("replace", label: "_Replace", appearance: .destructive)
/// dialog.closeResponse = "cancel"
/// dialog.connect(.response) { response in if response == "replace" { replace() } }
/// dialog.present()
/// ```
@MainActor
open class MessageDialog: Window {
    open override class var gType: GType { adw_message_dialog_get_type() }

    /// How a response's button looks.
    public enum ResponseAppearance: Sendable {
        /// An ordinary button.
        case `default`
        /// The answer the dialog suggests (blue).
        case suggested
        /// An answer that destroys something (red).
        case destructive

        var adwAppearance: AdwResponseAppearance {
            switch self {
            case .default: ADW_RESPONSE_DEFAULT
            case .suggested: ADW_RESPONSE_SUGGESTED
            case .destructive: ADW_RESPONSE_DESTRUCTIVE
            }
        }
    }

    /// A new dialog, modal over `parent`, without responses yet. Heading and body are plain
    /// text. Like every toplevel, it stays open until it is answered or destroyed.
    public convenience init(heading: String, body: String, over parent: Window?) {
        // GTK's list of toplevels owns the new window.
        self.init(retaining: adw_message_dialog_new(nil, heading, body))
        transientFor = parent
    }

    private var dialogPointer: UnsafeMutablePointer<AdwMessageDialog> { pointer(as: AdwMessageDialog.self) }

    /// The heading.
    public var heading: String {
        get { adw_message_dialog_get_heading(dialogPointer).map { String(cString: $0) } ?? "" }
        set { adw_message_dialog_set_heading(dialogPointer, newValue) }
    }

    /// The text under the heading.
    public var body: String {
        get { adw_message_dialog_get_body(dialogPointer).map { String(cString: $0) } ?? "" }
        set { adw_message_dialog_set_body(dialogPointer, newValue) }
    }

    /// A widget under the body, such as an ``Expander`` with details.
    public var extraChild: Widget? {
        get { adw_message_dialog_get_extra_child(dialogPointer).map { Widget(retaining: $0) } }
        set { adw_message_dialog_set_extra_child(dialogPointer, newValue?.widgetPointer) }
    }

    /// Adds a response button after the others; `label` may have a mnemonic (`_Close`).
    public func addResponse(_ id: String, label: String, appearance: ResponseAppearance = .default) {
        adw_message_dialog_add_response(dialogPointer, id, label)
        if appearance != .default { adw_message_dialog_set_response_appearance(dialogPointer, id, appearance.adwAppearance) }
    }

    /// Whether the dialog has the response `id`.
    public func hasResponse(_ id: String) -> Bool {
        adw_message_dialog_has_response(dialogPointer, id) != 0
    }

    /// The label of the response `id`, nil when there is none.
    public func label(ofResponse id: String) -> String? {
        guard hasResponse(id) else { return nil }
        return adw_message_dialog_get_response_label(dialogPointer, id).map { String(cString: $0) }
    }

    /// Relabels the response `id` (from a `.ui` file, say).
    public func setLabel(_ label: String, ofResponse id: String) {
        adw_message_dialog_set_response_label(dialogPointer, id, label)
    }

    /// Sets how the button of the response `id` looks.
    public func setAppearance(_ appearance: ResponseAppearance, ofResponse id: String) {
        adw_message_dialog_set_response_appearance(dialogPointer, id, appearance.adwAppearance)
    }

    /// The response Enter gives, nil for none.
    public var defaultResponse: String? {
        get { adw_message_dialog_get_default_response(dialogPointer).map { String(cString: $0) } }
        set { adw_message_dialog_set_default_response(dialogPointer, newValue) }
    }

    /// The response Escape and the window manager's close button give (`close` unless set).
    public var closeResponse: String {
        get { String(cString: adw_message_dialog_get_close_response(dialogPointer)) }
        set { adw_message_dialog_set_close_response(dialogPointer, newValue) }
    }

    /// Emits ``Signal/response`` with `id`, as the writer's answer would (tests drive dialogs
    /// through it). Unlike a click on the response's button, it leaves the dialog open.
    public func respond(_ id: String) {
        adw_message_dialog_response(dialogPointer, id)
    }
}
