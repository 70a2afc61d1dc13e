import Foundation

/// Binary values kept outside the database, seen from objects: a save writes the large ones to
/// files before their rows (``ManagedObjectContext/externalizeBinaries(of:)``), and a read loads
/// a file only when the attribute is asked for, so fetching and faulting objects never reads one.
extension ManagedObject {
    /// The bytes of a binary attribute, loaded from their file when the store keeps them outside
    /// the database; nil when the attribute is nil. Unlike the typed property (which reads a lost
    /// file as empty bytes), this throws ``ExternalBinaryError`` when the file is missing or damaged.
    public final func binaryValue(forKey key: String) throws -> Data? {
        guard let index = entityModel.attributeIndex[key], entityModel.attributes[index].type == .binaryData else {
            throw ObjectGraphError.unknownKey(entity: entityModel.name, key: key)
        }
        try fireFault()
        let stored = values[index]
        guard let digest = ExternalBinaryFolder.digest(inReference: stored) else {
            if case .data(let data) = stored { return data }
            return nil
        }
        guard let folder = context?.persistentStore.externalBinaries else { throw ObjectGraphError.objectDetached(objectID) }
        return try folder.contents(of: digest)
    }

    /// `stored` as readers see it: the bytes of a value kept outside the database (empty bytes when
    /// its file cannot be read, which `binaryValue(forKey:)` and the store's check report), else
    /// `stored` itself.
    @usableFromInline
    final func loadingExternalValue(_ stored: PrimitiveValue, at index: Int) -> PrimitiveValue {
        guard case .string = stored, index < entityModel.attributes.count,
              entityModel.attributes[index].type == .binaryData,
              let digest = ExternalBinaryFolder.digest(inReference: stored) else { return stored }
        guard let folder = context?.persistentStore.externalBinaries,
              let data = try? folder.contents(of: digest) else { return .data(Data()) }
        return .data(data)
    }
}

extension StoreTransaction {
    /// Puts back the bytes ``ManagedObjectContext/externalizeBinaries(of:_:)`` replaced, after a failed save.
    func restoreExternalizedValues() {
        for (object, slot, value) in externalizedValues.reversed() { object.values[slot] = value }
        externalizedValues.removeAll()
    }
}

extension ManagedObjectContext {
    /// Writes the large values of binary attributes kept outside the database to their files and
    /// puts their references in the objects instead; called inside the save's write transaction,
    /// before any row is written, so every file is on disk before the row that refers to it commits.
    /// The bytes go back into the objects if the save fails (``StoreTransaction/restoreExternalizedValues()``):
    /// a failed save's file may be collected, and the object must not then hold a reference to it.
    /// Every reference a saved object holds must have its file, else the save fails with
    /// ``ExternalBinaryError``: no save commits a row that refers to a missing file.
    func externalizeBinaries(of objects: [ManagedObject], _ transaction: StoreTransaction) throws {
        guard let folder = persistentStore.externalBinaries else { return }
        for object in objects where !object.entityModel.externalSlots.isEmpty {
            let writesAll = object.flags.contains(.inserted)
            for (slot, threshold) in object.entityModel.externalSlots {
                let value = object.values[slot]
                if let digest = ExternalBinaryFolder.digest(inReference: value) {
                    guard StoreFiles.exists(folder.path(of: digest)) else {
                        throw ExternalBinaryError(kind: .missing, digest: digest, path: folder.path(of: digest))
                    }
                    continue
                }
                // Only values the save writes: an unchanged row keeps what it holds.
                guard writesAll || object.changedProperties.contains(slot) else { continue }
                let stored = try externalized(value, threshold: threshold)
                if stored != value {
                    transaction.externalizedValues.append((object, slot, value))
                    object.values[slot] = stored
                }
            }
        }
    }

    /// The value a row keeps for `value`: the reference to its file when it is bytes of at least
    /// `threshold` and the store has a folder (the file is written first), else `value`.
    func externalized(_ value: PrimitiveValue, threshold: Int) throws -> PrimitiveValue {
        guard case .data(let data) = value, data.count >= threshold, let folder = persistentStore.externalBinaries else { return value }
        return ExternalBinaryFolder.reference(to: try folder.store(data))
    }
}
