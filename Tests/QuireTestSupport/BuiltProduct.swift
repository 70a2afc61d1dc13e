import Foundation

/// The package's executables as SwiftPM built them beside the test binary (`swift build
/// --build-tests` puts products and the test bundle in one folder).
public enum BuiltProduct {
    /// The executable `name` (`quire`, `quire-server`) built with the tests.
    public static func executable(_ name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test binary may sit inside a bundle's folders below the products.
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw ToolFailure(description: "\(name) is not built beside the tests (\(testBinary.path)); build it with `swift build --build-tests`")
    }

    /// The package's root folder (where `Package.swift` is).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
