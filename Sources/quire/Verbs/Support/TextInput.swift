import Foundation
import Platform

/// Text a verb reads from a file, or from standard input for `-`: `--body-file F|-`.
enum TextInput {
    /// The UTF-8 text of `path`, exactly as stored (line endings included).
    static func read(_ path: String, option: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw TextInputError(message: String(cFormat: gettext("cannot read %1$s %2$s: %3$s"), option, path, String(cString: strerror(errno))))
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            do {
                data = try handle.readToEnd() ?? Data()
            } catch {
                throw TextInputError(message: String(cFormat: gettext("cannot read %1$s %2$s: %3$s"), option, path, (error as NSError).localizedDescription))
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TextInputError(message: String(cFormat: gettext("%1$s %2$s is not UTF-8 text"), option, path == "-" ? gettext("standard input") : path))
        }
        return text
    }
}

/// Text a verb could not read.
struct TextInputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
