import Foundation

/// The editor's unsaved text of a library, kept in a file outside the database for when the
/// database cannot take it (the disk is full): the place a full disk cannot take away.
///
/// The file (`NAME.rescue` beside the library) is made, at its full size, while there is space
/// (``prepare()``: 8 MB, allocated with `posix_fallocate`), so that writing into it later needs no
/// new disk blocks. It holds two slots, written in turn: each write goes to the slot that does not
/// hold the latest text, with a sequence number and a checksum, and is synced, so a crash in the
/// middle of a write leaves the previous text readable. ``read()`` returns the newest valid slot.
///
/// ``DraftRecorder`` writes it when saving a draft fails for want of space, and empties it once the
/// drafts are in the store again; ``Library/adoptRescuedDrafts()`` brings what a stopped app left
/// in it back into the library's draft recovery on the next start.
public final class DraftRescueFile: Sendable {
    /// The file.
    public let url: URL
    /// Bytes per slot; a write of more text than fits fails (the editor keeps the text in memory).
    public let slotSize: Int

    private let lock = NSLock()
    private static let magic = Array("QUIRERESCUE1".utf8)
    private static let headerSize = 40

    /// The rescue file of the library at `libraryURL`.
    public convenience init(libraryURL: URL) {
        let url = libraryURL.standardizedFileURL
        self.init(url: url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".rescue"))
    }

    /// A rescue file at `url` with slots of `slotSize` bytes.
    public init(url: URL, slotSize: Int = 4 << 20) {
        self.url = url
        self.slotSize = slotSize
    }

    /// Makes the file at its full size if it is missing or smaller, so that later writes need no
    /// new space. Call while there is space (when the library opens).
    public func prepare() throws {
        try lock.withLock {
            let descriptor = try openFile()
            defer { close(descriptor) }
            let size = 2 * slotSize
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw fileError("fstat") }
            guard status.st_size < size else { return }
            let result = posix_fallocate(descriptor, 0, off_t(size))
            guard result == 0 else { throw DraftRescueError.spaceNotReserved(bytes: size, path: url.path, code: result) }
            guard fsync(descriptor) == 0 else { throw fileError("fsync") }
        }
    }

    /// Replaces the file's text with `drafts` (an empty list: nothing to rescue).
    public func write(_ drafts: [RescuedDraft]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let payload = Array(try encoder.encode(drafts))
        guard payload.count + Self.headerSize <= slotSize else {
            throw DraftRescueError.tooLarge(bytes: payload.count, capacity: slotSize - Self.headerSize)
        }
        try lock.withLock {
            let descriptor = try openFile()
            defer { close(descriptor) }
            let latest = readSlots(descriptor).max { $0.sequence < $1.sequence }
            let slot = latest.map { 1 - $0.slot } ?? 0
            let sequence = (latest?.sequence ?? 0) + 1
            var bytes = Self.magic + [0, 0, 0, 0]
            bytes += Self.littleEndian(sequence) + Self.littleEndian(UInt64(payload.count)) + Self.littleEndian(Self.checksum(payload))
            bytes += payload
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes {
                    pwrite(descriptor, $0.baseAddress! + offset, $0.count - offset, off_t(slot * slotSize + offset))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw fileError("pwrite")
                }
                offset += written
            }
            guard fdatasync(descriptor) == 0 else { throw fileError("fdatasync") }
        }
    }

    /// The drafts of the newest complete write; empty when there is no file or nothing to rescue.
    public func read() throws -> [RescuedDraft] {
        try lock.withLock {
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { return [] }
                throw fileError("open")
            }
            defer { close(descriptor) }
            guard let latest = readSlots(descriptor).max(by: { $0.sequence < $1.sequence }) else { return [] }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            return try decoder.decode([RescuedDraft].self, from: Data(latest.payload))
        }
    }

    private func openFile() throws -> Int32 {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fileError("open") }
        return descriptor
    }

    /// The slots holding a complete write.
    private func readSlots(_ descriptor: Int32) -> [(slot: Int, sequence: UInt64, payload: [UInt8])] {
        var slots: [(Int, UInt64, [UInt8])] = []
        for slot in 0..<2 {
            var header = [UInt8](repeating: 0, count: Self.headerSize)
            let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(slot * slotSize)) }
            guard count == Self.headerSize, Array(header[0..<12]) == Self.magic else { continue }
            let sequence = Self.integer(header[16..<24])
            let length = Self.integer(header[24..<32])
            guard length <= UInt64(slotSize - Self.headerSize) else { continue }
            var payload = [UInt8](repeating: 0, count: Int(length))
            let read = payload.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, $0.count, off_t(slot * slotSize + Self.headerSize))
            }
            guard read == Int(length), Self.checksum(payload) == Self.integer(header[32..<40]) else { continue }
            slots.append((slot, sequence, payload))
        }
        return slots
    }

    private func fileError(_ operation: String) -> DraftRescueError {
        .fileSystem(operation: operation, path: url.path, code: errno)
    }

    /// FNV-1a, 64 bits: enough to tell a torn write from a complete one.
    private static func checksum(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << ($1.offset * 8) }
    }
}

/// The editor's text of one article, kept in the rescue file.
public struct RescuedDraft: Codable, Sendable, Hashable {
    /// The article being edited.
    public var articleID: UUID
    /// The title in the editor.
    public var title: String
    /// The body in the editor.
    public var body: String
    /// When the editor held this text.
    public var saved: Date

    public init(articleID: UUID, title: String, body: String, saved: Date) {
        self.articleID = articleID
        self.title = title
        self.body = body
        self.saved = saved
    }
}

/// Why the rescue file could not be read or written.
public enum DraftRescueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's space could not be set aside (``DraftRescueFile/prepare()``): nothing is lost,
    /// but should the disk fill up, the texts it would have rescued are in memory only.
    case spaceNotReserved(bytes: Int, path: String, code: Int32)
    /// A system call failed.
    case fileSystem(operation: String, path: String, code: Int32)
    /// The text is larger than a slot.
    case tooLarge(bytes: Int, capacity: Int)

    public var description: String {
        switch self {
        case .spaceNotReserved(let bytes, let path, let code):
            return "posix_fallocate could not reserve \(bytes) bytes for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .fileSystem(let operation, let path, let code):
            return "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .tooLarge(let bytes, let capacity):
            return "the drafts take \(bytes) bytes; the rescue file holds \(capacity)"
        }
    }
}
