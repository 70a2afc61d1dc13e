import Foundation
import SyncClient
import SyncProtocol
import Platform

/// The outbox machinery wired to a real transport: the smallest worker the sync client's parts
/// make, with the store as dictionaries. Its round is the one `Outbox` documents; requests run
/// concurrently and their results come back as events.
struct PushLoop {
    let transport: any SyncTransport
    let reducer: OperationReducer
    var random: SeededGenerator

    /// The outbox rows by ID (acknowledged ones are deleted, as the store would).
    private(set) var entries: [String: OutboxEntry] = [:]
    /// ArticleBase: the server revision each live article is based on.
    private(set) var bases: [String: Int64] = [:]
    /// What became of each entry, by ID.
    private(set) var finals: [String: OperationState] = [:]
    /// The entry that took over each coalesced one.
    private(set) var absorbedInto: [String: String] = [:]
    /// Effects the loop does not expect from a single writer against a healthy server.
    private(set) var surprises: [String] = []
    /// What the server acknowledged, by entry.
    private(set) var acknowledged: [String: ServerVersion] = [:]
    private var nextSequence: Int64 = 0
    /// Requests the last steps asked for, to start.
    private var requests: [(String, OperationEffect)] = []

    init(transport: any SyncTransport, policy: RetryPolicy, seed: UInt64) {
        self.transport = transport
        reducer = OperationReducer(policy: policy)
        random = SeededGenerator(seed: seed)
    }

    /// Saves an edit: a new pending entry.
    mutating func save(_ change: OutboxChange, of article: String) -> String {
        nextSequence += 1
        let id = "op-\(nextSequence)-\(UUID().uuidString.prefix(8))"
        entries[id] = OutboxEntry(id: id, articleID: article, sequence: nextSequence, change: change)
        return id
    }

    private enum Completion: Sendable {
        case result(String, OperationEvent)
        case tick
        case edit
    }

    /// Pushes until every entry is final and `edits` (called between rounds with the loop, until
    /// it answers false) has nothing more to save.
    mutating func run(edits: @escaping (inout PushLoop) -> Bool, editInterval: Duration) async {
        await withTaskGroup(of: Completion.self) { group in
            var running = 0
            var ticking = false
            var editing = true
            group.addTask { try? await Task.sleep(for: editInterval); return .edit }
            while true {
                round()
                for (id, effect) in requests {
                    switch effect {
                    case let .send(request):
                        running += 1
                        group.addTask { [transport] in
                            do throws(TransportError) {
                                return .result(id, .answered(try await transport.send(request)))
                            } catch {
                                return .result(id, .sendFinished(.failure(error)))
                            }
                        }
                    case let .lookUp(request):
                        running += 1
                        group.addTask { [transport] in
                            do throws(TransportError) {
                                return .result(id, .lookedUp(try await transport.lookUp(request)))
                            } catch {
                                return .result(id, .lookupFinished(.failure(error)))
                            }
                        }
                    default:
                        break
                    }
                }
                requests = []
                if !editing, running == 0, entries.values.allSatisfy(\.state.isFinal) {
                    group.cancelAll()
                    break
                }
                if !ticking, let wake = Outbox.nextWakeUp(Array(entries.values)) {
                    ticking = true
                    let delay = max(0, wake.timeIntervalSinceNow)
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))
                        return .tick
                    }
                }
                switch await group.next() {
                case let .result(id, event)?:
                    running -= 1
                    apply(event, to: id)
                case .tick?:
                    ticking = false
                case .edit?:
                    editing = edits(&self)
                    if editing { group.addTask { try? await Task.sleep(for: editInterval); return .edit } }
                case nil:
                    return
                }
            }
        }
    }

    /// Coalesces, then starts every ready head.
    private mutating func round() {
        let coalescing = Outbox.coalesce(Array(entries.values))
        for entry in coalescing.rewritten { entries[entry.id] = entry }
        for id in coalescing.removed { entries[id] = nil }
        absorbedInto.merge(coalescing.absorbedInto) { $1 }
        for head in Outbox.ready(Array(entries.values), at: Date()) {
            let event: OperationEvent = head.state == .pending
                ? .sendStarted(base: bases[head.articleID].map { .revision($0) } ?? .absent) : .retryDue
            apply(event, to: head.id)
        }
    }

    /// The reducer's step, persisted; network effects are queued in `requests`.
    private mutating func apply(_ event: OperationEvent, to id: String) {
        guard let entry = entries[id] else { return }
        let step = reducer.reduce(entry, event, now: Date(), random: &random)
        if step.entry.state.isFinal { finals[id] = step.entry.state }
        entries[id] = step.entry.state.kind == .acknowledged ? nil : step.entry
        for effect in step.effects {
            switch effect {
            case .send, .lookUp:
                requests.append((id, effect))
            case let .acknowledge(version):
                acknowledged[id] = version
                if case let .live(article) = version { bases[entry.articleID] = article.revision } else { bases[entry.articleID] = nil }
            case .wakeUp:
                break
            case .recordConflict, .reportFailure, .stopForAccount, .relinquish:
                surprises.append("\(id): \(effect)")
            }
        }
    }
}
