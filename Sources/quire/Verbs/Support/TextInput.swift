import Foundation

/// Text a verb reads from a file, or from standard input for `-`: `--body-file F|-`.
enum TextInput {
    /// The UTF-8 text of `path`, exactly as stored (line endings included).
    static func read(_ path: String, option: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw TextInputError(message: "cannot read \(option) \(path): \(Self.reason(error))")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TextInputError(message: "\(option) \(path == "-" ? "standard input" : path) is not UTF-8 text")
        }
        return text
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return (error as NSError).localizedDescription
    }
}

/// Text a verb could not read.
struct TextInputError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
