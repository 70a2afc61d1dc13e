import Foundation

/// Pure functions over the outbox's entries that decide which to act on, in which order, and when
/// to wake up. The store hands in its rows as `OutboxEntry` values; nothing here touches it.
///
/// A worker's round, in one local transaction per step:
///
///     let coalescing = Outbox.coalesce(entries)        // store: rewrite and delete rows
///     for head in Outbox.ready(coalescing.entries, at: now) {
///         let event: OperationEvent = head.state == .pending ? .sendStarted(base: articleBase) : .retryDue
///         let step = reducer.reduce(head, event, now: now, random: &random)  // store: persist step.entry
///         perform(step.effects)                        // send, look up, schedule a wake-up, …
///     }
///     // after every later step (an answer arrived): run the round again, since a final state
///     // frees the article's next entry; sleep until `Outbox.nextWakeUp` otherwise.
///
/// Order and blocking, per article (entries of different articles never wait for each other):
/// - Entries of one article go to the server one at a time, in `sequence` order: the first entry
///   that is not final is the article's *head*, and only the head is sent. A later entry's base
///   is the revision its predecessor's acknowledgement made the article's base.
/// - `acknowledged` entries are done (the store may delete them with the acknowledgement).
/// - A `terminalFailure` does not block anything, later entries of the same article included:
///   a `PUT` carries the whole content, so the next entry delivers everything the failed one
///   held, against the article's base, which the failed one did not move. The failure stays to
///   be shown to the writer until the store drops it.
/// - A `conflicted` entry blocks the later entries of its article until the writer resolves the
///   conflict: they were made on top of the local version, which the conflict now holds. The
///   resolution deletes the conflicted entry (and, when the conflict's local side already
///   includes them, the later pending ones) and writes the resolution's entry in one transaction.
public enum Outbox {
    /// Each article's head: its first entry (by `sequence`) that is not final, unless a
    /// `conflicted` entry comes before it. In `sequence` order of the heads.
    public static func heads<Entry: OutboxOrdered>(_ entries: [Entry]) -> [Entry] {
        var decided = Set<String>()
        var heads: [Entry] = []
        for entry in entries.sorted(by: { $0.sequence < $1.sequence }) where !decided.contains(entry.articleID) {
            switch entry.state {
            case .acknowledged, .terminalFailure:
                continue
            case .conflicted:
                decided.insert(entry.articleID)
            case .pending, .sending, .waitingRetry, .unknownOutcome, .lookingUp:
                decided.insert(entry.articleID)
                heads.append(entry)
            }
        }
        return heads
    }

    /// The heads the worker should act on at `now`: pending ones (`sendStarted`) and waiting
    /// ones whose time has come (`retryDue`). Heads with a request on the wire are left alone.
    public static func ready<Entry: OutboxOrdered>(_ entries: [Entry], at now: Date) -> [Entry] {
        heads(entries).filter { head in
            switch head.state {
            case .pending: return true
            case let .waitingRetry(_, next): return next <= now
            case let .unknownOutcome(_, nextLookup): return nextLookup <= now
            default: return false
            }
        }
    }

    /// The earliest time a head waits for, to schedule the worker's next wake-up; nil when no
    /// head waits (everything is pending, in flight, final or blocked).
    public static func nextWakeUp<Entry: OutboxOrdered>(_ entries: [Entry]) -> Date? {
        heads(entries).compactMap(\.state.scheduledTime).min()
    }
}
