import CGLib
import Foundation

/// The folder where the user's programs keep their data, as the XDG Base Directory specification
/// defines it: `$XDG_DATA_HOME`, or `~/.local/share` when that is unset, empty or relative.
///
///     let library = DataFolder.user.appendingPathComponent("quire/library.quire")
public enum DataFolder {
    /// The user's data folder, from GLib's `g_get_user_data_dir()` (which reads the environment
    /// once per process). GLib 2.74 answers a relative `XDG_DATA_HOME` as it is, which the
    /// specification says to ignore; then the folder is `.local/share` in GLib's home folder.
    public static var user: URL {
        URL(fileURLWithPath: resolve(reported: String(cString: g_get_user_data_dir()), home: String(cString: g_get_home_dir())), isDirectory: true)
    }

    /// The data folder for what GLib `reported`: itself when it is absolute, otherwise
    /// `.local/share` in `home`.
    static func resolve(reported: String, home: String) -> String {
        reported.hasPrefix("/") ? reported : URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share").path
    }
}
