import Foundation
import ObjectGraph
import Testing

/// Cascade, nullify, deny and no-action, applied by save.
@Suite struct DeleteRuleTests {
    @Test func cascadeIsTransitive() throws {
        let stack = try TestStack()
        try stack.run { context in
            let root = Folder(context: context)
            root.name = "root"
            let child = Folder(context: context)
            child.name = "child"
            child.parent = root
            let grandchild = Folder(context: context)
            grandchild.name = "grandchild"
            grandchild.parent = child
            let article = Article(context: context)
            article.folder = grandchild
            let summary = Summary(context: context)
            article.summary = summary
            try context.save()
        }
        try stack.run { context in
            let root = try #require(try context.fetch(FetchRequest<Folder>(predicate: \.name == "root")).first)
            context.delete(root)
            let changes = try context.save()
            #expect(changes.deleted.count == 3)
            // Folder.articles nullifies: the article survives without a folder; its summary stays.
            let article = try #require(try context.fetch(FetchRequest<Article>()).first)
            #expect(article.folder == nil)
            #expect(article.summary != nil)
        }
        try stack.run { context in
            #expect(try context.count(for: FetchRequest<Folder>()) == 0)
            let article = try #require(try context.fetch(FetchRequest<Article>()).first)
            #expect(article.folder == nil)

            context.delete(article)
            try context.save()
            #expect(try context.count(for: FetchRequest<Summary>()) == 0)
        }
    }

    @Test func nullifyClearsTheInverseInMemoryAndInTheStore() throws {
        let stack = try TestStack()
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "doomed"
            let tag = Tag(context: context)
            tag.name = "kept"
            for index in 0..<3 {
                let article = Article(context: context)
                article.title = "\(index)"
                article.folder = folder
                article.tags = [tag]
            }
            try context.save()

            let article = try #require(folder.articles.first)
            context.delete(folder)
            context.delete(article)
            try context.save()
            #expect(tag.articles.count == 2)
            #expect(try context.fetch(FetchRequest<Article>()).allSatisfy { $0.folder == nil })
        }
        try stack.run { context in
            #expect(try context.count(for: FetchRequest<Article>(predicate: .isNil(\.folder))) == 2)
            let tag = try #require(try context.fetch(FetchRequest<Tag>()).first)
            #expect(tag.articles.count == 2)
        }
    }

    static let denySchema = Schema(version: 1, entities: [
        EntityDescription(
            "Account",
            attributes: [AttributeDescription("name", .string)],
            relationships: [.toMany("devices", "Device", inverse: "account", deleteRule: .deny)]),
        EntityDescription(
            "Device",
            attributes: [AttributeDescription("name", .string)],
            relationships: [
                .toOne("account", "Account", inverse: "devices"),
                .toMany("logs", "Log", inverse: "device", deleteRule: .noAction),
            ]),
        EntityDescription(
            "Log",
            attributes: [AttributeDescription("line", .string)],
            relationships: [.toOne("device", "Device", inverse: "logs")]),
    ])

    @Test func denyNamesTheBlockingObjectsAndWritesNothing() throws {
        let stack = try TestStack(schema: Self.denySchema)
        let (accountID, deviceIDs) = try stack.run { context in
            let account = try context.insertObject(entityName: "Account")
            try account.setValue("ada", forKey: "name")
            let devices = try (0..<2).map { index -> ManagedObject in
                let device = try context.insertObject(entityName: "Device")
                try device.setValue("device \(index)", forKey: "name")
                try device.setValue(account, forKey: "account")
                return device
            }
            try context.save()
            return (account.objectID, devices.map(\.objectID))
        }
        try stack.run { context in
            context.delete(try context.existingObject(with: accountID))
            do {
                try context.save()
                Issue.record("a deny rule let the delete through")
            } catch let error as ValidationError {
                #expect(error.issues.count == 1)
                #expect(error.issues.first?.entity == "Account")
                #expect(error.issues.first?.key == "devices")
                #expect(error.issues.first?.reason == .deleteDenied(by: deviceIDs))
            }
            context.rollback()
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Account")) == 1)

            // Without devices the delete goes through.
            for id in deviceIDs { context.delete(try context.existingObject(with: id)) }
            context.delete(try context.existingObject(with: accountID))
            try context.save()
        }
        try stack.run { context in
            let accounts = try context.count(for: FetchRequest<ManagedObject>(entityName: "Account"))
            #expect(accounts == 0)
        }
    }

    @Test func noActionLeavesTheInverseToTheCaller() throws {
        let stack = try TestStack(schema: Self.denySchema)
        let (deviceID, logID) = try stack.run { context in
            let device = try context.insertObject(entityName: "Device")
            try device.setValue("phone", forKey: "name")
            let log = try context.insertObject(entityName: "Log")
            try log.setValue("booted", forKey: "line")
            try log.setValue(device, forKey: "device")
            try context.save()
            return (device.objectID, log.objectID)
        }
        try stack.run { context in
            context.delete(try context.existingObject(with: deviceID))
            do {
                try context.save()
                Issue.record("a dangling reference was saved")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.objectID) == [logID])
                #expect(error.issues.first?.reason == .danglingReference(destination: "Device"))
            }
            // The store is untouched; clearing the reference in the same save works.
            var savedDevices = FetchRequest<ManagedObject>(entityName: "Device")
            savedDevices.includesPendingChanges = false
            let devicesInStore = try context.count(for: savedDevices)
            #expect(devicesInStore == 1)
            try context.existingObject(with: logID).setValue(nil, forKey: "device")
            try context.save()
        }
        try stack.run { context in
            let devices = try context.count(for: FetchRequest<ManagedObject>(entityName: "Device"))
            #expect(devices == 0)
            #expect(try context.existingObject(with: logID).value(forKey: "device") == nil)
        }
    }
}
