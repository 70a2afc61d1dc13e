import Library
import Platform

/// How the list shows an article's standing against the server: an icon, and words for its tooltip.
struct SyncBadge: Hashable, CustomStringConvertible {
    let state: ArticleSyncState

    /// The symbolic icon; a synced article shows a quiet check, a conflict a warning.
    var iconName: String {
        switch state {
        case .localOnly: "computer-symbolic"
        case .synced: "emblem-ok-symbolic"
        case .modified: "emblem-synchronizing-symbolic"
        case .conflicted: "dialog-warning-symbolic"
        }
    }

    /// Whether the badge asks for the writer's attention.
    var isWarning: Bool { state == .conflicted }

    var description: String {
        switch state {
        case .localOnly: gettext("Only on this device")
        case .synced: gettext("Synced")
        case .modified: gettext("Changes waiting to sync")
        case .conflicted: gettext("Conflict: changed here and on the server")
        }
    }
}
