import CGtk
import CWebKit
import GtkKit

/// A `WebKitSettings`: what a ``WebView`` lets its pages do.
@MainActor
public final class WebSettings: Object {
    public override class var gType: GType { webkit_settings_get_type() }

    private var settingsPointer: OpaquePointer { opaquePointer }

    /// Whether scripts of the page run: `<script>` elements and `on…` attributes
    /// (`enable-javascript-markup`). The app's own scripts (``WebView/evaluate(_:)``, user
    /// scripts) run either way.
    public var runsPageScripts: Bool {
        get { webkit_settings_get_enable_javascript_markup(settingsPointer) != 0 }
        set { webkit_settings_set_enable_javascript_markup(settingsPointer, newValue ? 1 : 0) }
    }

    /// Whether the inspector can be opened.
    public var allowsDeveloperTools: Bool {
        get { webkit_settings_get_enable_developer_extras(settingsPointer) != 0 }
        set { webkit_settings_set_enable_developer_extras(settingsPointer, newValue ? 1 : 0) }
    }

    /// Whether the page is drawn through WebKit's GPU compositing (`hardware-acceleration-policy`
    /// `ALWAYS`) rather than in software (`NEVER`).
    public var usesHardwareAcceleration: Bool {
        get { webkit_settings_get_hardware_acceleration_policy(settingsPointer) == WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS }
        set {
            webkit_settings_set_hardware_acceleration_policy(
                settingsPointer, newValue ? WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS : WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER)
        }
    }

    /// Whether pages left behind are kept in memory for going back (`enable-page-cache`).
    public var storesPagesInMemory: Bool {
        get { webkit_settings_get_enable_page_cache(settingsPointer) != 0 }
        set { webkit_settings_set_enable_page_cache(settingsPointer, newValue ? 1 : 0) }
    }
}
