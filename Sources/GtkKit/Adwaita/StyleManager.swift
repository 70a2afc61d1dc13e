import CGtk

/// The `AdwStyleManager` of the default display: whether libadwaita draws light or dark, and
/// what the app asks for.
///
/// ```swift
/// StyleManager.shared.connect(.notify("dark")) { _ in followScheme() }
/// ```
@MainActor
public final class StyleManager: Object {
    public override class var gType: GType { adw_style_manager_get_type() }

    /// The style manager of the default display.
    public static var shared: StyleManager { StyleManager(retaining: adw_style_manager_get_default()) }

    /// What the app asks for.
    public enum ColorScheme: Sendable {
        /// Follow the system (light unless the desktop prefers dark).
        case `default`
        /// Always light.
        case forceLight
        /// Always dark.
        case forceDark

        var adwScheme: AdwColorScheme {
            switch self {
            case .default: ADW_COLOR_SCHEME_DEFAULT
            case .forceLight: ADW_COLOR_SCHEME_FORCE_LIGHT
            case .forceDark: ADW_COLOR_SCHEME_FORCE_DARK
            }
        }
    }

    private var managerPointer: OpaquePointer { opaquePointer }

    /// Whether libadwaita draws dark now. Changes notify `dark`.
    public var isDark: Bool { adw_style_manager_get_dark(managerPointer) != 0 }

    /// Asks for a light or dark style, or the system's.
    public func setColorScheme(_ scheme: ColorScheme) {
        adw_style_manager_set_color_scheme(managerPointer, scheme.adwScheme)
    }
}
