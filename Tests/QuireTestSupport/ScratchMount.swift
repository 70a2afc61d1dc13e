import Foundation

/// A small tmpfs mounted for one test (root only): a disk that really fills up, or, remounted
/// read-only, a file system that refuses every write (root writes any file, so only that stops it).
///
///     let mount = try ScratchMount(megabytes: 8)
///     defer { mount.unmount() }
///     let url = mount.url.appendingPathComponent("library.quire")
///
/// A value, unmounted where the test says (`defer`), not when an object is released: Swift may
/// release one after its last use, which could unmount the disk under a library still open on it.
public struct ScratchMount: Sendable {
    /// The mounted folder.
    public let url: URL

    /// Whether this process may mount (root, where the container allows mounting).
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? ScratchMount(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    /// Mounts an empty tmpfs of `megabytes` on a new temporary folder.
    public init(megabytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-mount-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        do {
            _ = try Tool.run("mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", url.path])
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    /// Remounts the file system read-only (it fails while a file on it is open for writing).
    public func makeReadOnly() throws {
        _ = try Tool.run("mount", ["-o", "remount,ro", url.path])
    }

    /// Unmounts it and removes its folder. Lazily: a file the test still holds open on it keeps
    /// the tmpfs alive until closed, instead of leaving it mounted.
    public func unmount() {
        _ = try? Tool.run("umount", ["--lazy", url.path])
        try? FileManager.default.removeItem(at: url)
    }
}
