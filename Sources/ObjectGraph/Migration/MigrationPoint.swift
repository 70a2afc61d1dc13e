import Foundation

/// The named points a migration passes, for tests that kill it at every one of them.
///
/// With `OBJECTGRAPH_MIGRATION_KILL_AT=NAME` in the environment, the process kills itself with
/// SIGKILL on reaching the point NAME (as a crash or a power cut would stop it: no cleanup runs);
/// with `OBJECTGRAPH_MIGRATION_POINTS=1` it prints `objectgraph-migration-point NAME` on standard
/// error at every point, so a test can list them. Points: `copy.started`, `copy.finished`,
/// `prepared`, `stage.S.structure.written` (inside the transaction, before COMMIT),
/// `stage.S.structure`, `stage.S.transform.T.batch.B.written`, `stage.S.transform.T.batch.B`,
/// `stage.S.finish.written`, `stage.S.finish`, `stage.S.checked`, `validated`, `swap.locked`,
/// `swap.linked`, `swap.renamed`, `finished` (S, T, B from 1).
enum MigrationPoint {
    static let killVariable = "OBJECTGRAPH_MIGRATION_KILL_AT"
    static let traceVariable = "OBJECTGRAPH_MIGRATION_POINTS"

    private static let killPoint = ProcessInfo.processInfo.environment[killVariable]
    private static let traces = ProcessInfo.processInfo.environment[traceVariable] == "1"

    /// Marks that the migration reached `name`.
    static func reach(_ name: @autoclosure () -> String) {
        guard killPoint != nil || traces else { return }
        let name = name()
        if traces { FileHandle.standardError.write(Data("objectgraph-migration-point \(name)\n".utf8)) }
        if name == killPoint { kill(getpid(), SIGKILL) }
    }
}
