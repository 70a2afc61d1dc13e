/// The verbs `quire` understands.
enum Verbs {
    /// Every verb, in the order `quire --help` lists them. A new verb is one file in `Verbs/`
    /// and one line here.
    static let all: [any Verb.Type] = [
        HelpVerb.self,
        ListVerb.self,
        ShowVerb.self,
        NewVerb.self,
        EditVerb.self,
        TrashVerb.self,
        RestoreVerb.self,
        EmptyTrashVerb.self,
        TagVerb.self,
        UntagVerb.self,
        TagsVerb.self,
        FavoriteVerb.self,
        StatusVerb.self,
        MoveVerb.self,
        FolderVerb.self,
        FoldersVerb.self,
        HistoryVerb.self,
        RestoreVersionVerb.self,
        DemoVerb.self,
        ExportVerb.self,
        ImportVerb.self,
        SyncVerb.self,
        ConflictsVerb.self,
        ResolveVerb.self,
        AccountVerb.self,
        CheckVerb.self,
        MigrateVerb.self,
    ]

    /// The verb called `name`.
    static func named(_ name: String) -> (any Verb.Type)? {
        all.first { $0.name == name }
    }
}
