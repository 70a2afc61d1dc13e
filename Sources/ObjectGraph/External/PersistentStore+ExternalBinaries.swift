import Foundation

/// The store's side of binary values kept outside the database: where their folder is, which files
/// rows refer to, removing the files no row refers to, and checking the ones they do.
extension PersistentStore {
    /// The folder of values kept outside the database; nil for a store in memory, which keeps
    /// every value in its rows.
    public var externalBinaries: ExternalBinaryFolder? {
        storeDescription.url.map(ExternalBinaryFolder.init(store:))
    }

    /// One row's reference to a value kept outside the database.
    public struct ExternalReference: Sendable, Hashable {
        /// The object whose attribute refers to the file.
        public var objectID: ManagedObjectID
        /// The attribute.
        public var attribute: String
        /// The SHA-256 of the value.
        public var digest: String
    }

    /// Every reference the rows hold, in entity, attribute and key order.
    public func externalReferences() throws -> [ExternalReference] {
        try read { connection in try externalReferences(connection) }
    }

    func externalReferences(_ connection: SQLiteConnection) throws -> [ExternalReference] {
        var references: [ExternalReference] = []
        for entity in model.entities {
            for (slot, _) in entity.externalSlots {
                let column = SQL.quote(entity.attributes[slot].name)
                let statement = try connection.statement(
                    "SELECT _pk, \(column) FROM \(entity.table) WHERE typeof(\(column)) = 'text' ORDER BY _pk")
                defer { statement.reset() }
                while try statement.step() {
                    guard let digest = ExternalBinaryFolder.digest(inReference: .string(statement.text(1))) else { continue }
                    references.append(ExternalReference(
                        objectID: ManagedObjectID(entity: entity, key: statement.int64(0)),
                        attribute: entity.attributes[slot].name, digest: digest))
                }
            }
        }
        return references
    }

    /// Removes the files of the external folder that no row refers to (values replaced or deleted,
    /// and files of saves that never committed), and returns their names.
    ///
    /// It runs holding the store's write transaction: a save writes its files inside its own
    /// write transaction, so no save is between writing a file and committing the row that refers
    /// to it while this reads the references, in this process or another. A file a committed row
    /// refers to is never removed; a kill at any moment leaves only files that no row refers to.
    @discardableResult
    public func collectExternalBinaries() throws -> [String] {
        guard let folder = externalBinaries else { return [] }
        return try write { connection, transaction in
            transaction.history = nil
            let referenced = Set(try externalReferences(connection).map(\.digest))
            let unreferenced = try folder.fileNames().filter { !referenced.contains($0) }
            ExternalBinaryPoint.reach("collect.listed")
            for (number, name) in unreferenced.enumerated() {
                try StoreFiles.removeIfPresent(folder.url.appendingPathComponent(name).path)
                ExternalBinaryPoint.reach("collect.removed.\(number + 1)")
            }
            if !unreferenced.isEmpty { try StoreFiles.synchronizeFile(folder.url.path) }
            return unreferenced
        }
    }

    /// A reference whose file is missing, unreadable or damaged.
    public struct ExternalBinaryProblem: Sendable, Hashable {
        /// The row and attribute that refer to the file.
        public var reference: ExternalReference
        /// What is wrong with the file.
        public var error: ExternalBinaryError
    }

    /// Reads every referenced file and reports the ones that do not hold what was saved (each
    /// reference separately, so every object that lost a value is named).
    public func externalBinaryProblems() throws -> [ExternalBinaryProblem] {
        guard let folder = externalBinaries else { return [] }
        var checked: [String: ExternalBinaryError?] = [:]
        var problems: [ExternalBinaryProblem] = []
        for reference in try externalReferences() {
            if checked[reference.digest] == nil {
                do throws(ExternalBinaryError) {
                    _ = try folder.contents(of: reference.digest)
                    checked[reference.digest] = .some(nil)
                } catch {
                    checked[reference.digest] = .some(error)
                }
            }
            if let error = checked[reference.digest]! { problems.append(ExternalBinaryProblem(reference: reference, error: error)) }
        }
        return problems
    }
}
