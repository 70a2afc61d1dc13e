import Library
import Platform
import SyncProtocol

extension ArticleStatus {
    /// The status in `quire`'s human output, in the reader's language. `--status` and `STATUS`
    /// take the raw value (`draft`, `ready`, `published`) in every language, and `--json` writes it.
    var word: String {
        switch self {
        case .draft: gettext("draft")
        case .ready: gettext("ready")
        case .published: gettext("published")
        }
    }
}

extension ArticleSyncState {
    /// The sync state in `quire show`'s output, in the reader's language; `--json` writes the raw value.
    var word: String {
        switch self {
        case .localOnly: gettext("only on this device")
        case .synced: gettext("synced")
        case .modified: gettext("changes waiting to sync")
        case .conflicted: gettext("conflict")
        }
    }
}
