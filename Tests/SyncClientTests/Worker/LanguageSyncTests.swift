import Foundation
import Library
import SyncProtocol
import Testing
@testable import SyncClient

/// The article's language between two libraries through a real quire-server: it reaches the other
/// device, and an edit there (whose content states the language too) keeps it.
@Suite struct LanguageSyncTests {
    typealias Devices = ConflictEndToEndTests.Devices

    @Test func theLanguageReachesTheOtherDeviceAndStaysThroughItsEdits() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle("Body.\n")
        try await devices.a.library.editArticle(id, language: "de_DE")
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.b.library.article(id).language == "de_DE")

        try await devices.b.library.editArticle(id, body: "Text auf B.\n")
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        let onA = try await devices.a.library.article(id)
        #expect(onA.language == "de_DE" && onA.body == "Text auf B.\n")

        try await devices.b.library.editArticle(id, language: "fr")
        try await devices.b.sync(devices.server, token: devices.token)
        try await devices.a.sync(devices.server, token: devices.token)
        #expect(try await devices.a.library.article(id).language == "fr")
        try await devices.expectConverged()
    }
}
