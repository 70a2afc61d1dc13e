import Foundation

/// The sync protocol's contract, `data/sync-api.yaml`, for tests that check the server or the
/// client against it.
public enum SyncAPIDocument {
    /// The OpenAPI document as JSON objects, converted by python3 with PyYAML (Debian: python3-yaml,
    /// one of the test packages).
    public static func load() throws -> [String: Any] {
        let path = BuiltProduct.packageRoot.appendingPathComponent("data/sync-api.yaml").path
        let json = try Tool.run("python3", ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)", path])
        guard let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw ToolFailure(description: "\(path) is not an OpenAPI document (its top level is not a mapping)")
        }
        return document
    }
}
