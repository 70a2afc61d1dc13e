/// Quire's identity, defined once: the desktop file, AppStream metainfo, GSettings schema, icons
/// and resource paths in `data/` all use ``applicationID`` (the tests check they agree).
public enum Quire {
    /// The reverse-DNS application id.
    public static let applicationID = "org.quire.Quire"

    /// The name people see.
    public static let name = "Quire"

    /// The release version; meson.build and the metainfo's newest release carry the same.
    public static let version = "0.1.0"

    /// The GSettings schema id.
    public static let settingsSchemaID = applicationID

    /// The root of Quire's GResource files, `/org/quire/Quire/` (GApplication's resource base path).
    public static let resourcePath = "/" + applicationID.split(separator: ".").joined(separator: "/") + "/"
}
