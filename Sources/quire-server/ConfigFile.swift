import CommandLineArguments
import Foundation

/// A configuration file: one `name = value` a line, where the names are `serve`'s long options
/// without their dashes. Blank lines and lines starting with `#` are ignored; a value runs to the
/// end of its line, spaces around it dropped.
///
///     # /etc/quire-server/config
///     listen = 0.0.0.0:7740
///     data = /var/lib/quire-server
///     tls-cert = /etc/quire-server/cert.pem
struct ConfigFile {
    /// One setting and where it was written, for error messages.
    struct Entry {
        var name: String
        var value: String
        /// `PATH line N`.
        var origin: String
    }

    let path: String
    let entries: [Entry]

    /// Reads and splits the file; a line that is not `name = value` is an error naming it.
    init(path: String) throws {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandLineError.invalidSetting("cannot read the configuration file \(path): \(Self.reason(error))")
        }
        var entries: [Entry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let origin = "\(path) line \(index + 1)"
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw CommandLineError.invalidSetting("\(origin): expected name = value")
            }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw CommandLineError.invalidSetting("\(origin): a setting needs a name before '='") }
            entries.append(Entry(name: name, value: value, origin: origin))
        }
        self.path = path
        self.entries = entries
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return (error as NSError).localizedDescription
    }
}
