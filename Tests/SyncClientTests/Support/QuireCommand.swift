import Foundation
import QuireTestSupport

/// The `quire` executable built beside the tests, run as a process on a library: what the
/// command-line verbs do with what the worker left.
struct QuireCommand {
    let executable: URL

    /// The `quire` built beside the tests, or nil when it is not there.
    init?() {
        guard let executable = try? BuiltProduct.executable("quire") else { return nil }
        self.executable = executable
    }

    /// Runs `quire ARGUMENTS --library LIBRARY` (with `input` on standard input) and waits for it,
    /// on a thread of its own (`BlockingWork`).
    func run(_ arguments: [String], library: URL, input: String? = nil) async throws -> ProgramRun {
        // Keep the writer's own library and account out of reach.
        let home = FileManager.default.temporaryDirectory.path + "/quire-sync-tests-home"
        return try await BlockingWork.run { [executable] in
            try ProgramRun(executable, arguments + ["--library", library.path], environment: ["XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home],
                           input: input.map { Data($0.utf8) })
        }
    }
}
