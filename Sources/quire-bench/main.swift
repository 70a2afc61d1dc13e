import Foundation

/// Every suite `quire-bench` can run. A new suite is a file of its own plus one line here.
let suites: [any BenchmarkSuite.Type] = [
    ObjectGraphSuite.self,
    FRCSuite.self,
    ServerSuite.self,
    ExportSuite.self,
    MigrateSuite.self,
    SyncSuite.self,
    AppStartSuite.self,
    EditorSuite.self,
    TagsSuite.self,
    SpellingSuite.self,
    UXSuite.self,
    AttachmentsSuite.self,
]

let usage = """
    usage: quire-bench SUITE [--rows N] [--repetitions N] [--json]

    Measures Quire against raw SQLite in the same run (build with -c release).
    Suites:
    \(suites.map { "  \($0.name.padding(toLength: 14, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("quire-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(arguments.isEmpty ? 2 : 0)
}
let suiteName = arguments.removeFirst()
guard let suite = suites.first(where: { $0.name == suiteName }) else { fail("no suite named '\(suiteName)'\n\(usage)") }

var rows = suite.defaultRows
var repetitions = 5
var emitsJSON = false
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    switch option {
    case "--json": emitsJSON = true
    case "--rows", "--repetitions":
        guard let text = arguments.first, let number = Int(text), number > 0 else { fail("\(option) needs a positive number") }
        arguments.removeFirst()
        if option == "--rows" { rows = number } else { repetitions = max(5, number) }
    default: fail("unknown option '\(option)'")
    }
}

let workDirectory = FileManager.default.temporaryDirectory
    .appendingPathComponent("quire-bench-\(suite.name)-\(ProcessInfo.processInfo.processIdentifier)")
do {
    try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: workDirectory) }
    let options = BenchmarkOptions(rows: rows, repetitions: repetitions, workDirectory: workDirectory)
    let report = SuiteReport(suite: suite.name, rows: rows, results: try await suite.run(options))
    print(emitsJSON ? try report.json() : report.table())
} catch {
    fail("\(suite.name) failed: \(error)")
}
