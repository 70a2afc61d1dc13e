import Foundation

/// A fresh temporary folder for one test, removed when the test's value goes away.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates an empty folder under the system's temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tests-" + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The entry `name` (a relative path) in the folder.
    public func appending(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Every entry under the folder (hidden ones included), as paths relative to it, sorted.
    public func contents(of folder: URL? = nil) throws -> [String] {
        let root = folder ?? url
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return (enumerator.allObjects as? [String] ?? []).sorted()
    }
}
