import GtkKit

/// The module's `.ui` files and icons, compiled into the binary by the CompileGResources plugin
/// (see `QuireUI.gresource.xml`).
enum QuireResources {
    /// The embedded bundle. It is compiled from files checked at build time, so failing to read
    /// it means a broken build.
    static let bundle: ResourceBundle = {
        do {
            return try ResourceBundle(base64: embeddedGResourceBundle)
        } catch {
            fatalError("the embedded GResource bundle is unreadable: \(error)")
        }
    }()

    /// Makes the files visible under ``Quire/resourcePath``. Later calls do nothing.
    static func register() {
        bundle.register()
    }
}
