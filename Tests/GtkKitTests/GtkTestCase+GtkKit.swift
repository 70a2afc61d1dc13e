import CGtk
import GtkShim
import Glibc
import GtkKit
import GtkTestSupport
import XCTest

/// What GtkKit's tests add to the shared GTK test base (GtkTestSupport): applications run to the
/// end, signals emitted by name, tools run.
extension GtkTestCase {
    private nonisolated(unsafe) static var applicationCount = 0

    /// Runs a new application (non-unique, a fresh id) with `g_application_run`, calling
    /// `activated` from its `activate` signal, and returns the exit status. The application is
    /// held, so it runs until `activated` (or what it starts) calls `finish`; the watchdog
    /// fails the test and quits if that never happens.
    @MainActor
    func runApplication(
        file: StaticString = #filePath, line: UInt = #line,
        _ activated: @escaping @MainActor (_ application: Application, _ finish: @escaping @MainActor () -> Void) -> Void
    ) -> Int32 {
        Self.applicationCount += 1
        let application = Application(id: "org.quire.GtkKitTests.App\(Self.applicationCount)", flags: .nonUnique)
        var finished = false
        let finish: @MainActor () -> Void = { [unowned application] in
            guard !finished else { return }
            finished = true
            application.release()
            application.quit()
        }
        application.connect(.activate) { [unowned application] in
            application.hold()
            activated(application, finish)
        }
        let watchdog = Timeout(milliseconds: Self.watchdogMilliseconds) {
            XCTFail("the application did not finish in time", file: file, line: line)
            finish()
        }
        let status = application.run(arguments: ["gtkkit-tests"])
        watchdog.cancel()
        return status
    }

    enum SignalArgument {
        case double(Double)
        case int(Int32)
        case boolean(Bool)
        /// An object of this type, borrowed for the emission.
        case object(UnsafeMutableRawPointer, GType)
    }

    /// Emits a signal with `g_signal_emitv` (g_signal_emit is variadic) and returns the
    /// handlers' boolean result, if the signal has one.
    @MainActor
    @discardableResult
    func emit(_ name: String, on object: Object, _ arguments: [SignalArgument], returns: GType? = nil) -> Int32? {
        var values = [GValue](repeating: GValue(), count: arguments.count + 1)
        g_value_init(&values[0], gtkshim_instance_type(object.objectPointer))
        g_value_set_object(&values[0], object.objectPointer)
        for (index, argument) in arguments.enumerated() {
            switch argument {
            case .double(let value):
                g_value_init(&values[index + 1], gtkshim_type_double())
                g_value_set_double(&values[index + 1], value)
            case .int(let value):
                g_value_init(&values[index + 1], gtkshim_type_int())
                g_value_set_int(&values[index + 1], value)
            case .boolean(let value):
                g_value_init(&values[index + 1], gtkshim_type_boolean())
                g_value_set_boolean(&values[index + 1], value ? 1 : 0)
            case .object(let object, let type):
                g_value_init(&values[index + 1], type)
                g_value_set_object(&values[index + 1], object)
            }
        }
        var result = GValue()
        if let returns { g_value_init(&result, returns) }
        let signalID = g_signal_lookup(name, gtkshim_instance_type(object.objectPointer))
        XCTAssertNotEqual(signalID, 0)
        defer { for index in values.indices { g_value_unset(&values[index]) } }
        guard returns != nil else {
            g_signal_emitv(&values, signalID, 0, nil)
            return nil
        }
        g_signal_emitv(&values, signalID, 0, &result)
        defer { g_value_unset(&result) }
        return g_value_get_boolean(&result)
    }

    /// Runs a command-line tool and fails the test if it does not exit 0.
    func runTool(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(arguments.joined(separator: " ")): \(message)", file: file, line: line)
    }
}

/// An object whose lifetime a test watches through a weak reference: captured by a closure,
/// it shows whether the closure (and the box holding it) has been released.
final class Sentinel {}

/// A counter shared between a test and its handlers.
@MainActor
final class Counter {
    var value = 0
}
