import Foundation
import GtkKit
import Library
import Platform
import QuireUI

// The user's language, for the window and the human output of the verbs alike (never --json).
Translation.start()

// Decide what the command line asks for before anything starts: verbs, --help and --version
// run without a display and never initialize GTK.
let invocation: Invocation
do {
    invocation = try Invocation(arguments: CommandLine.arguments)
} catch {
    VerbRunner.printError("quire: \(error)\nTry 'quire --help'.")
    exit(VerbRunner.ExitStatus.usage)
}

switch invocation {
case .version:
    print("quire \(Quire.version)")
case .help:
    print(HelpText.overview())
case .verbHelp(let verb):
    print(HelpText.usage(of: verb))
case .verb(let verb, let arguments):
    VerbRunner.runAndExit(verb, arguments: arguments)
case .application(let arguments, let library):
    let screenshotPath = getenv("QUIRE_SCREENSHOT").map { String(cString: $0) }
    let application = QuireApplication(
        libraryURL: library ?? Library.defaultURL(), settings: Settings.lookup(schemaID: Quire.settingsSchemaID),
        screenshotPath: screenshotPath, reportsFirstRows: getenv("QUIRE_REPORT_FIRST_ROWS") != nil,
        reportsStalls: getenv("QUIRE_REPORT_STALLS") != nil, reportsPreview: getenv("QUIRE_REPORT_PREVIEW") != nil,
        reportsFeltSpeed: getenv("QUIRE_REPORT_FELT_SPEED") != nil)
    exit(application.run(arguments: arguments))
}
