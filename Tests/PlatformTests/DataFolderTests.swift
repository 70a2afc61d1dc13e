import Foundation
@testable import Platform
import QuireTestSupport
import Testing

/// GLib reads the environment once per process, so each case runs in a child process of its own.
@Suite struct DataFolderTests {
    @Test func anAbsoluteXDGDataHomeIsTheFolder() throws {
        #expect(try dataFolder(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/w"]) == "/data")
    }

    @Test func aRelativeXDGDataHomeIsIgnoredAsTheSpecificationAsks() throws {
        #expect(try dataFolder(environment: ["XDG_DATA_HOME": "relative/data", "HOME": "/home/w"]) == "/home/w/.local/share")
    }

    @Test func anEmptyXDGDataHomeMeansTheDefault() throws {
        #expect(try dataFolder(environment: ["XDG_DATA_HOME": "", "HOME": "/home/w"]) == "/home/w/.local/share")
    }

    @Test func whatGLibReportsIsKeptOnlyWhenAbsolute() {
        #expect(DataFolder.resolve(reported: "/srv/data", home: "/home/w") == "/srv/data")
        #expect(DataFolder.resolve(reported: "data", home: "/home/w") == "/home/w/.local/share")
        #expect(DataFolder.resolve(reported: "./data", home: "/home/w/") == "/home/w/.local/share")
    }

    static let entryVariable = "PLATFORM_TESTS_DATA_FOLDER"

    /// The data folder a child process with `environment` reports.
    private func dataFolder(environment: [String: String]) throws -> String {
        let child = try TestBinary.run(filter: "DataFolderTests/reportTheDataFolder", environment: environment.merging([Self.entryVariable: "1"]) { $1 })
        #expect(child.status == 0, "\(child.output)")
        let line = try #require(child.output.split(separator: "\n").first { $0.hasPrefix("data folder: ") })
        return String(line.dropFirst("data folder: ".count))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[entryVariable] != nil, "entry point of the child process that the data folder tests start"))
    func reportTheDataFolder() {
        print("data folder: \(DataFolder.user.path)")
    }
}
