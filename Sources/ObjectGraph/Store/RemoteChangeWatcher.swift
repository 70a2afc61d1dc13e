import Foundation
import Glibc

/// Wakes a store when its files change on disk: inotify on the store's folder, for the database
/// and its WAL file. Other processes' commits write the WAL, so this is how they are noticed
/// without polling. Where inotify is unavailable it polls instead.
final class RemoteChangeWatcher: @unchecked Sendable {
    private let source: any DispatchSourceProtocol

    /// Watches `file` (and `file-wal`), calling `onChange` on a private queue after changes.
    init(file: URL, pollInterval: TimeInterval, onChange: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "objectgraph.remote-changes")
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
        if descriptor >= 0, inotify_add_watch(descriptor, file.deletingLastPathComponent().path, mask) >= 0 {
            let name = file.lastPathComponent
            let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            read.setEventHandler {
                if Self.drain(descriptor, mentioning: name) { onChange() }
            }
            read.setCancelHandler { close(descriptor) }
            source = read
        } else {
            if descriptor >= 0 { close(descriptor) }
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + pollInterval, repeating: pollInterval)
            timer.setEventHandler(handler: onChange)
            source = timer
        }
        source.resume()
    }

    func stop() {
        source.cancel()
    }

    /// Reads every pending event; true when one concerns the store's files.
    private static func drain(_ descriptor: Int32, mentioning name: String) -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
            while offset + 16 <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)) }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self).hasPrefix(name) { relevant = true }
                offset += 16 + length
            }
        }
    }
}

/// What a store last knew of commits by other connections.
struct RemoteState {
    /// SQLite's `data_version`, which changes when another connection commits.
    var dataVersion: Int64 = 0
    /// The newest history token already merged or written here.
    var lastToken: Int64 = 0

    init(_ connection: SQLiteConnection, recordsHistory: Bool) throws {
        if case .integer(let version)? = try connection.scalar("PRAGMA data_version") { dataVersion = version }
        if recordsHistory, case .integer(let token)? = try connection.scalar("SELECT max(token) FROM og_history_transaction") {
            lastToken = token
        }
    }
}
