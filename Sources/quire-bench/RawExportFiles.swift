import Foundation

/// The file work of an export written straight on the C library: the floor that the export
/// figures (`export`, and the `attachments` suite's) are read against.
///
/// It makes the same files in the same places as the export it stands beside (``Shape``), with the
/// same guarantees: nothing shows until everything is on disk. Files per article are made in a
/// hidden folder inside the destination, the file system is synced (`syncfs`), then each is
/// renamed into place and the folders are synced; a single file is written beside its destination,
/// synced and renamed over it. What it leaves out is the export's own work, which the ratio shows:
/// the texts go out as they are given (no front matter, rendering or encoding), files are named
/// by number (no names from titles), and images are copied as bytes.
final class RawExportFiles {
    /// Where an export's articles and images go.
    enum Shape {
        /// A file per article, and each article's images as files of their own in an `assets/`
        /// folder beside them (Markdown, HTML).
        case filesWithAssets
        /// A file per article that holds its images (HTML with `--embed`, PDF).
        case filesHoldingImages
        /// One file for every article and image (a JSON archive).
        case oneFile
    }

    private let shape: Shape
    private let destination: String
    private let destinationName: String
    /// The destination folder (file shapes) or the folder the one file goes into.
    private let folder: Int32
    private let stagingName: String
    private var staging: Int32 = -1
    /// The one file's temporary name and descriptor, and its 64 KiB buffer (as the export's).
    private let temporaryName: String
    private var single: Int32 = -1
    private var buffer: [UInt8] = []
    private var articles = 0
    private var staged: [String] = []
    /// Whether an image went into `assets/`, which is made for the first one, as the export makes it.
    private var hasAssets = false
    /// The last image read, in the first `imageLength` bytes of a buffer that only grows.
    private var image: [UInt8] = []
    private var imageLength = 0

    private static let bufferLimit = 1 << 16
    private typealias SyncFS = @convention(c) (Int32) -> Int32
    /// Not in Swift's Glibc module (it needs `_GNU_SOURCE`); the export looks it up the same way.
    private static let syncFS: SyncFS? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs").map { unsafeBitCast($0, to: SyncFS.self) }

    /// Starts writing to `destination`: a folder to make (file shapes) or a file in an existing folder.
    init(_ shape: Shape, destination url: URL) throws {
        self.shape = shape
        destination = url.path
        destinationName = url.lastPathComponent
        stagingName = ".raw-export-staging"
        temporaryName = ".raw-export-" + destinationName
        switch shape {
        case .filesWithAssets, .filesHoldingImages:
            try Self.check(mkdir(destination, 0o777), "mkdir", destination)
            folder = try Self.openFolder(destination)
            try Self.check(mkdirat(folder, stagingName, 0o700), "mkdir", stagingName)
            staging = try Self.openFolder(destination + "/" + stagingName)
        case .oneFile:
            folder = try Self.openFolder(url.deletingLastPathComponent().path)
            single = openat(folder, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            try Self.check(single, "create", temporaryName)
            buffer.reserveCapacity(Self.bufferLimit)
        }
    }

    deinit {
        for descriptor in [staging, single, folder] where descriptor >= 0 { close(descriptor) }
    }

    /// Writes one article: its text, then the bytes of the image files at `images`.
    func add(text: UnsafeRawBufferPointer, images: [String] = []) throws {
        articles += 1
        switch shape {
        case .filesWithAssets, .filesHoldingImages:
            let name = "\(articles).txt"
            let file = openat(staging, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            try Self.check(file, "create", name)
            defer { close(file) }
            staged.append(name)
            try Self.writeAll(file, text)
            for (index, path) in images.enumerated() {
                try read(imageAt: path)
                if shape == .filesHoldingImages {
                    try withImage { try Self.writeAll(file, $0) }
                    continue
                }
                if !hasAssets {
                    try Self.check(mkdirat(staging, "assets", 0o700), "mkdir", "assets")
                    hasAssets = true
                }
                let asset = "assets/\(articles)-\(index)"
                let assetFile = openat(staging, asset, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
                try Self.check(assetFile, "create", asset)
                defer { close(assetFile) }
                staged.append(asset)
                try withImage { try Self.writeAll(assetFile, $0) }
            }
        case .oneFile:
            try append(text)
            for path in images {
                try read(imageAt: path)
                try withImage { try append($0) }
            }
        }
    }

    /// Puts everything on disk and in place.
    func commit() throws {
        switch shape {
        case .filesWithAssets, .filesHoldingImages:
            guard let syncFS = Self.syncFS else { throw RawExportError(operation: "syncfs", path: destination, code: ENOSYS) }
            try Self.check(syncFS(staging), "syncfs", destination)
            if hasAssets { try Self.check(mkdirat(folder, "assets", 0o777), "mkdir", "assets") }
            for name in staged { try Self.check(renameat(staging, name, folder, name), "rename", name) }
            try Self.check(fsync(folder), "fsync", destination)
            if hasAssets {
                let assets = try Self.openFolder(destination + "/assets")
                defer { close(assets) }
                try Self.check(fsync(assets), "fsync", "assets")
                try Self.check(unlinkat(staging, "assets", AT_REMOVEDIR), "rmdir", "assets")
            }
            try Self.check(unlinkat(folder, stagingName, AT_REMOVEDIR), "rmdir", stagingName)
        case .oneFile:
            try buffer.withUnsafeBytes { try Self.writeAll(single, $0) }
            buffer.removeAll(keepingCapacity: true)
            try Self.check(fsync(single), "fsync", temporaryName)
            try Self.check(renameat(folder, temporaryName, folder, destinationName), "rename", destination)
            try Self.check(fsync(folder), "fsync", destination)
        }
    }

    /// Appends to the one file through its buffer, writing out what would not fit.
    private func append(_ bytes: UnsafeRawBufferPointer) throws {
        if buffer.count + bytes.count > Self.bufferLimit {
            try buffer.withUnsafeBytes { try Self.writeAll(single, $0) }
            buffer.removeAll(keepingCapacity: true)
        }
        if bytes.count >= Self.bufferLimit { try Self.writeAll(single, bytes) } else { buffer.append(contentsOf: bytes) }
    }

    /// Reads a whole file into `image`, reusing its storage.
    private func read(imageAt path: String) throws {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        try Self.check(file, "open", path)
        defer { close(file) }
        var status = stat()
        try Self.check(fstat(file, &status), "stat", path)
        let size = Int(status.st_size)
        if image.count < size { image = [UInt8](repeating: 0, count: size) }
        var offset = 0
        try image.withUnsafeMutableBytes { bytes in
            while offset < size {
                let count = Glibc.read(file, bytes.baseAddress! + offset, size - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw RawExportError(operation: "read", path: path, code: count < 0 ? errno : EIO) }
                offset += count
            }
        }
        imageLength = size
    }

    private func withImage(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try image.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<imageLength])) }
    }

    private static func writeAll(_ file: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(file, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written >= 0 else { throw RawExportError(operation: "write", path: "", code: errno) }
            offset += written
        }
    }

    private static func openFolder(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try check(descriptor, "open", path)
        return descriptor
    }

    private static func check(_ result: Int32, _ operation: String, _ path: String) throws {
        guard result >= 0 else { throw RawExportError(operation: operation, path: path, code: errno) }
    }
}

/// A failed call of ``RawExportFiles``.
struct RawExportError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let code: Int32

    var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}
