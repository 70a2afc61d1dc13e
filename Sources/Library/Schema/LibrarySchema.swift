import ObjectGraph

/// Every schema version of a Quire library, kept in code forever, and the classes of the current
/// one.
///
/// A version is declared once as structure only (``v1``) and never edited; ``current`` binds the
/// model classes to the newest version. Migrations compare two versions, and a store written by an
/// older build is recognised by its version's checksum.
public enum LibrarySchema {
    /// The version this build reads and writes, with the model classes.
    public static let current: Schema = v6.binding(classes: [
        "Article": StoredArticle.self,
        "ArticleBase": ArticleBase.self,
        "Folder": Folder.self,
        "Tag": Tag.self,
        "DraftRecovery": DraftRecovery.self,
        "SyncOperation": SyncOperation.self,
        "Conflict": Conflict.self,
        "SyncCursor": SyncCursor.self,
        "SyncLease": SyncLease.self,
        "ArticleVersion": ArticleVersion.self,
        "PersonalWord": PersonalWord.self,
        "IgnoredWord": IgnoredWord.self,
        "Attachment": StoredAttachment.self,
    ])
}

extension Schema {
    /// The same schema with object classes for the named entities (the checksum does not change:
    /// it covers structure only).
    func binding(classes: [String: ManagedObject.Type]) -> Schema {
        var schema = self
        for index in schema.entities.indices {
            if let objectClass = classes[schema.entities[index].name] { schema.entities[index].objectClass = objectClass }
        }
        return schema
    }
}
