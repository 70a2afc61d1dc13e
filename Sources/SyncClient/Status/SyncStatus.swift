import Foundation
import SyncProtocol

/// Where a library's sync stands, as a value the app observes (``SyncWorker/status``): what the
/// worker is doing, how many changes wait, the open conflicts, the changes the server refused,
/// when the library last caught up, and the last problem with its details.
///
/// The header bar shows ``headline``; the preferences and an error popover show the rest.
public struct SyncStatus: Sendable, Hashable {
    /// What the worker is doing.
    public enum Activity: Sendable, Hashable {
        /// No worker runs (not started, signed out, or stopped).
        case stopped
        /// Caught up; waiting for an edit, the pull interval or Sync now.
        case idle
        /// Pushing or pulling.
        case syncing
        /// The server cannot be reached since this time; the worker checks again by itself.
        case offline(since: Date)
        /// Another Quire process syncs this library (it holds the lease) until this time.
        case waitingForLease(owner: String, until: Date)
        /// The server refused the token: the writer must sign in again. The worker stopped.
        case signInRequired(detail: String?)
    }

    /// The one thing the header bar says.
    public enum Headline: Sendable, Hashable {
        /// Everything is on the server and the library has the server's changes.
        case synced
        /// A push or pull is running.
        case syncing
        /// The server cannot be reached; edits are kept and wait.
        case offline
        /// This many changes wait to be sent.
        case waiting(Int)
        /// Something needs the writer: a refused change, a refused token, a failure; with details.
        case error(String)
        /// Sync is off (no account, or signed out).
        case off
    }

    /// What the worker is doing.
    public var activity: Activity
    /// Outbox operations that wait to reach the server (unsent, on the wire, or waiting to retry).
    public var waitingChanges: Int
    /// Conflicts waiting for the writer's decision.
    public var openConflicts: Int
    /// Changes the server refused for good; shown to the writer until dismissed.
    public var failures: [SyncFailure]
    /// When a pull last read the feed to its end.
    public var lastSynced: Date?
    /// The most recent problem (network, server or store), with details; nil after a clean cycle.
    public var lastProblem: SyncProblem?
    /// The server is older than ``ProtocolVersion/blobs`` and keeps no attachments: articles sync,
    /// their images and files stay in this library. For the app to tell the writer once.
    public var serverKeepsNoAttachments = false

    /// A status with nothing known yet.
    public init(
        activity: Activity = .stopped, waitingChanges: Int = 0, openConflicts: Int = 0, failures: [SyncFailure] = [],
        lastSynced: Date? = nil, lastProblem: SyncProblem? = nil
    ) {
        self.activity = activity
        self.waitingChanges = waitingChanges
        self.openConflicts = openConflicts
        self.failures = failures
        self.lastSynced = lastSynced
        self.lastProblem = lastProblem
    }

    /// The header bar's word, most urgent first: an error, offline, syncing, changes waiting,
    /// synced (conflicts have their own banner).
    public var headline: Headline {
        if case let .signInRequired(detail) = activity {
            return .error("The server refused the account's token; sign in again" + (detail.map { " (\($0))" } ?? ""))
        }
        if !failures.isEmpty {
            return .error(failures.count == 1 ? "1 change could not be saved on the server"
                          : "\(failures.count) changes could not be saved on the server")
        }
        switch activity {
        case .stopped: return .off
        case .offline: return .offline
        case .syncing: return .syncing
        case .idle, .waitingForLease, .signInRequired: break
        }
        if let lastProblem, !lastProblem.isNetwork { return .error(lastProblem.summary) }
        return waitingChanges > 0 ? .waiting(waitingChanges) : .synced
    }
}
