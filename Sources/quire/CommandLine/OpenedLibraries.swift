import Library
import Synchronization

/// The libraries the running verb opened (through `LibraryOption.open`). `VerbRunner` closes them
/// when the verb ends, however it ends, before the process exits: after any `quire VERB` the
/// library file alone holds everything (`Library.close()`).
enum OpenedLibraries {
    private static let libraries = Mutex<[Library]>([])

    /// Keeps `library` to be closed when the verb ends.
    static func add(_ library: Library) {
        libraries.withLock { $0.append(library) }
    }

    /// Closes every library the verb opened.
    static func closeAll() {
        let opened = libraries.withLock { libraries in
            defer { libraries = [] }
            return libraries
        }
        for library in opened { library.close() }
    }
}
