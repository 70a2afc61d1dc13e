import Foundation
import PackagePlugin

/// Compiles a target's `*.gresource.xml` with `glib-compile-resources` and embeds the bundle in
/// the target as Swift source (`embeddedGResourceBundle`), so the program finds its `.ui` files
/// and icons without any path, installed or not.
///
/// Files named in the XML are looked up in the target's folder, then in the package's `data/`
/// folder (for the app icons). The dependencies come from `glib-compile-resources
/// --generate-dependencies`, so editing any listed file recompiles the bundle.
@main
struct CompileGResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let manifests = target.sourceFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(".gresource.xml") }
        guard manifests.count <= 1 else {
            throw PluginError("\(target.name) has more than one .gresource.xml; one bundle per target")
        }
        guard let manifest = manifests.first else { return [] }

        // The manifest sits at the top of the target folder.
        let sourceDirectories = [manifest.deletingLastPathComponent(), context.package.directoryURL.appending(path: "data")]
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedGResourceBundle.swift")
        let dependencies = try Self.dependencies(of: manifest, sourceDirectories: sourceDirectories)
        return [
            .buildCommand(
                displayName: "Compiling GResource bundle \(manifest.lastPathComponent)",
                executable: try context.tool(named: "gresource-embed").url,
                arguments: [manifest.path, output.path] + sourceDirectories.map(\.path),
                inputFiles: [manifest] + dependencies,
                outputFiles: [output])
        ]
    }

    /// The files the manifest lists, as `glib-compile-resources` resolves them.
    private static func dependencies(of manifest: URL, sourceDirectories: [URL]) throws -> [URL] {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = ["glib-compile-resources", "--generate-dependencies"]
            + sourceDirectories.map { "--sourcedir=\($0.path)" } + [manifest.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let listing = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginError("glib-compile-resources --generate-dependencies \(manifest.path) failed")
        }
        return String(decoding: listing, as: UTF8.self).split(separator: "\n").map { URL(filePath: String($0)) }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
