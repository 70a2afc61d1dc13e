import Foundation

/// Why a store could not be migrated. Whatever the reason, the original store file is as it was:
/// a migration works on a copy and replaces the original only after validating the copy.
///
/// Store failures during a migration (no space, I/O, a damaged original) are thrown as the
/// ``StoreError`` they are.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stage's schema change cannot be inferred: each problem names the entity and property and
    /// what a custom stage would have to do.
    case customStageRequired(stage: String, problems: [MigrationProblem])
    /// The plan's stages do not lead from one shipped schema to the next.
    case invalidPlan(String)
    /// The store's schema is none of the plan's: written by a newer program (its version is higher
    /// than the current one) or by an unknown one. Nothing is migrated, and nothing may be written.
    case unknownSchema(found: SchemaVersion, current: SchemaVersion)
    /// The disk has too little free space for the working copy and its journal.
    case insufficientSpace(path: String, required: Int64, available: Int64)
    /// Another connection has the store open, or another process is migrating it.
    case storeInUse(path: String)
    /// The store cannot be written (its file, folder or file system is read-only), so it cannot be
    /// replaced by its migrated copy.
    case storeNotWritable(path: String, reason: String)
    /// The original changed while its copy was being migrated (another program wrote to it); the
    /// copy was discarded.
    case storeChanged(path: String)
    /// A custom stage's transform threw for a row; the copy was left at the last checkpoint.
    case transformFailed(stage: String, entity: String, key: Int64, reason: String)
    /// The migrated copy failed validation; it was discarded and the original kept.
    case validationFailed(stage: String?, problems: [MigrationProblem])

    public var description: String {
        switch self {
        case .customStageRequired(let stage, let problems):
            return "stage \(stage) needs a custom stage: " + problems.map(\.description).joined(separator: "; ")
        case .invalidPlan(let reason):
            return "invalid migration plan: \(reason)"
        case .unknownSchema(let found, let current):
            return found.version > current.version
                ? "the store was written by a newer program (schema \(found)); this one knows up to \(current)"
                : "the store's schema (\(found)) is none of the shipped schemas (current: \(current))"
        case .insufficientSpace(let path, let required, let available):
            return "migrating \(path) needs \(Self.megabytes(required)) of free disk space; \(Self.megabytes(available)) are free"
        case .storeInUse(let path):
            return "\(path) is open in another program, or another process is migrating it"
        case .storeNotWritable(let path, let reason):
            return "\(path) cannot be migrated: \(reason)"
        case .storeChanged(let path):
            return "\(path) changed while it was being migrated; its migrated copy was discarded"
        case .transformFailed(let stage, let entity, let key, let reason):
            return "stage \(stage) failed for \(entity) row \(key): \(reason)"
        case .validationFailed(let stage, let problems):
            let scope = stage.map { "stage \($0)" } ?? "the migrated store"
            return "\(scope) failed validation: " + problems.prefix(20).map(\.description).joined(separator: "; ")
                + (problems.count > 20 ? "; and \(problems.count - 20) more" : "")
        }
    }

    /// A byte count as megabytes with one decimal, for messages.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}

/// One thing wrong with a schema change or a migrated store, naming what it is about.
public struct MigrationProblem: Sendable, Hashable, CustomStringConvertible {
    /// The entity concerned, if any.
    public var entity: String?
    /// The attribute or relationship concerned, if any.
    public var property: String?
    /// A sentence a developer can act on.
    public var message: String

    /// A problem about `entity.property`.
    public init(entity: String? = nil, property: String? = nil, message: String) {
        self.entity = entity
        self.property = property
        self.message = message
    }

    public var description: String {
        guard let entity else { return message }
        return "\(entity)\(property.map { ".\($0)" } ?? ""): \(message)"
    }
}
