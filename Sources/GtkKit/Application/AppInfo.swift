import CGtk

/// The desktop's applications, as GIO knows them (`GAppInfo`).
public enum AppInfo {
    /// Opens `uri` (such as `file:///home/writer/Exports/`) with the desktop's default
    /// application for it: a folder in the file manager, a page in the browser. GTK 4.8 has no
    /// `GtkFileLauncher`.
    ///
    /// Throws GIO's error when no application takes it (a desktop without a file manager).
    @MainActor
    public static func launchDefault(forURI uri: String) throws(GLibError) {
        let launched = try GLibError.catching("opening \(uri)") { error in
            g_app_info_launch_default_for_uri(uri, nil, error)
        }
        guard launched != 0 else {
            throw GLibError(domain: "gtkkit", code: 0, message: "no application opens it", operation: "opening \(uri)")
        }
    }
}
